import Testing
@testable import FlowNodes

@Suite struct FormulaTests {
  // MARK: - Helpers

  private func evaluate(_ source: String, _ values: [Double] = []) throws -> Double {
    try Formula(parsing: source).evaluate(values)
  }

  private func parseError(_ source: String) -> FormulaError? {
    do {
      _ = try Formula(parsing: source)
      return nil
    } catch {
      return error
    }
  }

  private func evaluationError(_ source: String, _ values: [Double] = []) throws -> FormulaError? {
    let formula = try Formula(parsing: source)
    do {
      _ = try formula.evaluate(values)
      return nil
    } catch {
      return error
    }
  }

  private func isClose(_ actual: Double, _ expected: Double) -> Bool {
    if actual == expected { return true }
    let tolerance = 1e-12 * max(1, expected.magnitude)
    return (actual - expected).magnitude <= tolerance
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var source: String
    var expected: Double
    var testDescription: String { "\(source) = \(expected)" }
    init(_ source: String, _ expected: Double) {
      self.source = source
      self.expected = expected
    }
  }

  struct ErrorCase: Sendable, CustomTestStringConvertible {
    var source: String
    var message: String
    var column: Int
    var testDescription: String { "\(source.debugDescription) → column \(column): \(message)" }
    init(_ source: String, _ message: String, column: Int) {
      self.source = source
      self.message = message
      self.column = column
    }
  }

  // MARK: - Literals and constants

  @Test(arguments: [
    Case("12", 12), Case("3.5", 3.5), Case(".5", 0.5), Case("1e3", 1000),
    Case("2.5E-3", 0.0025), Case("1E+2", 100), Case("007", 7), Case("1.", 1),
    Case("9007199254740993", 9007199254740992), Case("1234567890123456", 1234567890123456), Case("0.1", 0.1),
  ])
  func decimalNumbersParse(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test func hugeNumberLiteralsBecomeInfinityOrZero() throws {
    #expect(try evaluate("1e400") == .infinity)
    #expect(try evaluate("1e-400") == 0)
    #expect(try evaluate(String(repeating: "9", count: 400)) == .infinity)
  }

  @Test func constantsPiAndEHaveTheirValues() throws {
    #expect(try evaluate("pi") == Double.pi)
    #expect(try evaluate("e") == 2.718281828459045)
    #expect(isClose(try evaluate("ln(e)"), 1))
    #expect(isClose(try evaluate("cos(pi)"), -1))
    #expect(try Formula(parsing: "pi * e").variables.isEmpty)
  }

  @Test func constantsAreCaseSensitive() throws {
    let formula = try Formula(parsing: "PI + E + Pi")
    #expect(formula.variables == ["PI", "E", "Pi"])
    #expect(try formula.evaluate([1, 2, 3]) == 6)
  }

  @Test func whitespaceIsIgnored() throws {
    #expect(try evaluate(" \t1 +\n2\r\n* 3 ") == 7)
    #expect(try evaluate("sqrt (16)") == 4)
  }

  // MARK: - Precedence and associativity

  @Test(arguments: [
    Case("10 - 3 - 2", 5), Case("1 - 2 + 3", 2), Case("10 + 2 - 3 + 1", 10),
  ])
  func additionAndSubtractionAreLeftAssociative(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test(arguments: [
    Case("12 / 3 / 2", 2), Case("100 / 10 * 2", 20), Case("2 * 3 % 4", 2),
    Case("7 % 4 * 3", 9), Case("20 % 7 % 4", 2), Case("18 / 3 % 4", 2),
  ])
  func multiplicativeOperatorsAreLeftAssociative(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test(arguments: [
    Case("2 + 3 * 4", 14), Case("2 * 3 + 4", 10), Case("10 - 4 / 2", 8),
    Case("1 + 7 % 4", 4), Case("(2 + 3) * 4", 20), Case("2 * (3 + 4)", 14),
  ])
  func multiplicationBindsTighterThanAddition(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test(arguments: [
    Case("-2^2", -4), Case("(-2)^2", 4), Case("-2^2 * 3", -12), Case("- 3 ^ 2", -9),
    Case("-pi^0", -1),
  ])
  func powerBindsTighterThanUnaryMinus(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test func powerBindsTighterThanUnaryMinusOnVariables() throws {
    #expect(try evaluate("-x^2", [3]) == -9)
    #expect(try evaluate("-x^2", [-3]) == -9)
  }

  @Test(arguments: [
    Case("2^3^2", 512), Case("(2^3)^2", 64), Case("2^2^3", 256), Case("4^0.5^2", 2.0.squareRoot()),
  ])
  func powerIsRightAssociative(_ test: Case) throws {
    #expect(isClose(try evaluate(test.source), test.expected))
  }

  @Test(arguments: [
    Case("2^-1", 0.5), Case("2^-1 * 4", 2), Case("2^-3^2", 1.0 / 512), Case("2^+2", 4),
    Case("2^--1", 2), Case("10^-2", 0.01),
  ])
  func unaryMinusIsAllowedAsTheExponent(_ test: Case) throws {
    #expect(isClose(try evaluate(test.source), test.expected))
  }

  @Test(arguments: [
    Case("2 * 3^2", 18), Case("3^2 * 2", 18), Case("2^3 / 2", 4), Case("1 + 2^3", 9),
    Case("2^3 % 5", 3),
  ])
  func powerBindsTighterThanMultiplication(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test(arguments: [
    Case("-3 * -2", 6), Case("2 * -3", -6), Case("-2 * 3", -6), Case("--3", 3),
    Case("-+-3", 3), Case("+3", 3), Case("2 - -3", 5), Case("2 + -3", -1),
    Case("-(2 + 3)", -5), Case("6 / -2", -3), Case("-7 % 3 * 2", -2), Case("---3", -3),
  ])
  func unaryMinusAndPlusBindTighterThanMultiplication(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test(arguments: [
    Case("-7 % 3", -1), Case("7 % -3", 1), Case("7 % 3", 1), Case("-7 % -3", -1),
    Case("7.5 % 2", 1.5), Case("-7.5 % 2", -1.5), Case("6 % 3", 0),
  ])
  func remainderKeepsTheSignOfTheDividend(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test(arguments: [
    Case("round(2.5)", 3), Case("round(-2.5)", -3), Case("round(0.5)", 1),
    Case("round(-0.5)", -1), Case("round(1.5)", 2), Case("round(1.4999)", 1),
    Case("round(-1.6)", -2),
  ])
  func roundRoundsHalvesAwayFromZero(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  // MARK: - Functions

  static let functionCases: [Case] = [
    Case("sqrt(16)", 4),
    Case("abs(-3.5)", 3.5),
    Case("min(3)", 3),
    Case("min(5, -1)", -1),
    Case("min(4, 2, 8, 3)", 2),
    Case("max(3)", 3),
    Case("max(1, 2)", 2),
    Case("max(4, 2, 8, 3)", 8),
    Case("floor(-1.5)", -2),
    Case("floor(2.7)", 2),
    Case("ceil(-1.5)", -1),
    Case("ceil(2.1)", 3),
    Case("round(2.4)", 2),
    Case("sin(pi / 2)", 1),
    Case("cos(0)", 1),
    Case("tan(pi / 4)", 1),
    Case("asin(1)", Double.pi / 2),
    Case("acos(1)", 0),
    Case("atan(1)", Double.pi / 4),
    Case("atan2(1, 1)", Double.pi / 4),
    Case("atan2(1, -1)", 3 * Double.pi / 4),
    Case("log(e^3)", 3),
    Case("ln(e^2)", 2),
    Case("log10(1000)", 3),
    Case("log2(8)", 3),
    Case("exp(0)", 1),
    Case("exp(1)", 2.718281828459045),
    Case("pow(2, 10)", 1024),
    Case("pow(2, -1)", 0.5),
    Case("sign(-3)", -1),
    Case("sign(0)", 0),
    Case("sign(5.5)", 1),
    Case("trunc(-2.7)", -2),
    Case("trunc(2.7)", 2),
    Case("hypot(3, 4)", 5),
    Case("clamp(5, 0, 1)", 1),
    Case("clamp(-5, 0, 1)", 0),
    Case("clamp(0.25, 0, 1)", 0.25),
  ]

  @Test(arguments: functionCases)
  func everyFunctionComputesItsValue(_ test: Case) throws {
    #expect(isClose(try evaluate(test.source), test.expected))
  }

  /// Replaces every number literal by a variable (`v0`, `v1`, …), so nothing is constant-folded.
  private func unfolded(_ source: String) -> (source: String, values: [Double]) {
    var result = ""
    var values: [Double] = []
    var literal = ""
    var previous: Character = " "
    for character in source + " " {
      if character.isNumber || character == "." || (!literal.isEmpty && character == "e") {
        if literal.isEmpty && (previous.isLetter || previous.isNumber) {
          result.append(character)  // a digit inside an identifier such as log10
        } else {
          literal.append(character)
        }
      } else {
        if !literal.isEmpty, let value = Double(literal) {
          result += "v\(values.count)"
          values.append(value)
          literal = ""
        }
        result.append(character)
      }
      previous = character
    }
    return (result, values)
  }

  @Test(arguments: functionCases)
  func functionsGiveTheSameResultWithoutConstantFolding(_ test: Case) throws {
    let folded = try Formula(parsing: test.source)
    #expect(folded.program.count == 1)
    let (source, values) = unfolded(test.source)
    let formula = try Formula(parsing: source)
    #expect(formula.variables.count == values.count)
    #expect(formula.program.contains(.variable(0)))
    #expect(try formula.evaluate(values).bitPattern == folded.evaluate([]).bitPattern)
  }

  @Test func functionTableCoversEveryFunctionOfTheContract() {
    let contract = [
      "sqrt", "abs", "min", "max", "floor", "ceil", "round", "sin", "cos", "tan", "asin",
      "acos", "atan", "atan2", "log", "ln", "log10", "log2", "exp", "pow", "sign", "trunc",
      "hypot", "clamp",
    ]
    #expect(Set(FormulaFunction.allCases.map(\.name)) == Set(contract))
    for name in contract {
      #expect(FormulaFunction(name: name)?.name == name)
      let tested = Self.functionCases.contains { $0.source.hasPrefix(name + "(") }
      #expect(tested, "no test case calls \(name)")
    }
    #expect(FormulaFunction(name: "Sqrt") == nil)
  }

  @Test func functionsEvaluateWithVariableArguments() throws {
    let formula = try Formula(parsing: "clamp(x, lo, hi) + min(x, y, lo) + max(y) + pow(x, y)")
    #expect(formula.variables == ["x", "lo", "hi", "y"])
    // clamp(3, 0, 2) = 2; min(3, 4, 0) = 0; max(4) = 4; pow(3, 4) = 81
    #expect(try formula.evaluate([3, 0, 2, 4]) == 87)
  }

  @Test func functionCallsNestAndComposeWithOperators() throws {
    #expect(try evaluate("sqrt(sqrt(16)) * -abs(-2)^2") == -8)
    #expect(try evaluate("max(1 + 2, (3 * 2), -min(4, 5))") == 6)
    #expect(try evaluate("-sqrt(4)^2") == -4)
  }

  @Test func logIsTheNaturalLogarithm() throws {
    #expect(try evaluate("log(x)", [10]) == evaluate("ln(x)", [10]))
    #expect(isClose(try evaluate("log(10)"), 2.302585092994046))
  }

  @Test func minAndMaxPropagateNaN() throws {
    #expect(try evaluate("min(x, 1)", [.nan]).isNaN)
    #expect(try evaluate("max(1, x)", [.nan]).isNaN)
    #expect(try evaluate("min(1, 2, x)", [.nan]).isNaN)
    #expect(try evaluate("clamp(x, 0, 1)", [.nan]).isNaN)
  }

  @Test func nonFiniteResultsAreOrdinaryValues() throws {
    #expect(try evaluate("sqrt(-1)").isNaN)
    #expect(try evaluate("exp(1000)") == .infinity)
    #expect(try evaluate("-exp(1000)") == -.infinity)
    #expect(try evaluate("log(0)") == -.infinity)
    #expect(try evaluate("asin(x)", [2]).isNaN)
    #expect(try evaluate("x * 2", [.infinity]) == .infinity)
  }

  // MARK: - Variables

  @Test func variablesAreListedInOrderOfFirstAppearance() throws {
    #expect(try Formula(parsing: "b*a + b").variables == ["b", "a"])
    #expect(try Formula(parsing: "pi*r^2").variables == ["r"])
    #expect(try Formula(parsing: "sqrt(y) + x + y").variables == ["y", "x"])
    #expect(try Formula(parsing: "1 + 2").variables.isEmpty)
  }

  @Test func variablesReceiveValuesInTheirListedOrder() throws {
    let formula = try Formula(parsing: "b*a + b")
    #expect(try formula.evaluate([2, 3]) == 8)
    #expect(try formula.evaluate([3, 2]) == 9)
    #expect(isClose(try Formula(parsing: "pi*r^2").evaluate([2]), 4 * Double.pi))
  }

  @Test func identifiersAreCaseSensitiveAndMayContainDigitsAndUnderscores() throws {
    let formula = try Formula(parsing: "x + X + _a1 + a_2 + pi2 + epsilon")
    #expect(formula.variables == ["x", "X", "_a1", "a_2", "pi2", "epsilon"])
    #expect(try formula.evaluate([1, 2, 3, 4, 5, 6]) == 21)
  }

  @Test func aFunctionNameWithoutParenthesesIsAVariable() throws {
    let formula = try Formula(parsing: "sqrt + max(sqrt)")
    #expect(formula.variables == ["sqrt"])
    #expect(try formula.evaluate([5]) == 10)
  }

  @Test func variablesAreNeverConstantFolded() throws {
    let formula = try Formula(parsing: "x * 0")
    #expect(formula.variables == ["x"])
    #expect(try formula.evaluate([.nan]).isNaN)
  }

  @Test func evaluateRejectsTheWrongNumberOfValues() throws {
    let formula = try Formula(parsing: "a + b")
    for values: [Double] in [[], [1], [1, 2, 3]] {
      #expect(throws: FormulaError(message: "expected 2 values, got \(values.count)")) {
        try formula.evaluate(values)
      }
    }
    #expect(throws: FormulaError(message: "expected 1 value, got 0")) {
      try Formula(parsing: "x").evaluate([])
    }
    #expect(try Formula(parsing: "2").evaluate([]) == 2)
  }

  @Test func evaluateCanBeRepeatedWithDifferentValues() throws {
    let formula = try Formula(parsing: "a * x^2 + b * x + c")
    for x in stride(from: -5.0, through: 5.0, by: 0.5) {
      #expect(try formula.evaluate([2, x, -3, 1]) == 2 * x * x - 3 * x + 1)
    }
  }

  @Test func evaluateIsSafeFromConcurrentTasks() async throws {
    let formula = try Formula(parsing: "x^2 + 1")
    let sum = await withTaskGroup(of: Double.self) { group in
      for i in 0..<64 {
        group.addTask { (try? formula.evaluate([Double(i)])) ?? .nan }
      }
      return await group.reduce(0, +)
    }
    #expect(sum == Double((0..<64).map { $0 * $0 + 1 }.reduce(0, +)))
  }

  // MARK: - Division by zero

  @Test(arguments: ["1/0", "0/0", "5 % 0", "1 / (2 - 2)", "x / 0", "1 % -0", "-1/0 + 2"])
  func divisionByZeroIsAnEvaluationError(_ source: String) throws {
    let error = try evaluationError(source, source.contains("x") ? [1] : [])
    #expect(error == FormulaError(message: "division by zero", column: nil))
    #expect(error?.description == "division by zero")
  }

  @Test func divisionByAZeroVariableIsAnEvaluationError() throws {
    let formula = try Formula(parsing: "x / y + x % y")
    #expect(throws: FormulaError.divisionByZero) { try formula.evaluate([1, 0]) }
    #expect(try formula.evaluate([7, 2]) == 4.5)
    #expect(throws: FormulaError.divisionByZero) { try Formula(parsing: "x % y").evaluate([1, 0]) }
  }

  @Test func divisionByNonZeroAndZeroDividendAreFine() throws {
    #expect(try evaluate("0 / 5") == 0)
    #expect(try evaluate("0 % 5") == 0)
    #expect(try evaluate("1 / x", [.infinity]) == 0)
    #expect(try evaluate("1 / x", [.nan]).isNaN)
  }

  // MARK: - Parse errors

  static let errorCases: [ErrorCase] = [
    ErrorCase("", "empty formula", column: 1),
    ErrorCase("   ", "empty formula", column: 1),
    ErrorCase("1 + $", "unexpected character '$'", column: 5),
    ErrorCase("x#", "unexpected character '#'", column: 2),
    ErrorCase("é + 1", "unexpected character 'é'", column: 1),
    ErrorCase("1 + é", "unexpected character 'é'", column: 5),
    ErrorCase("1 + \u{0}", "unexpected character '\\0'", column: 5),
    ErrorCase("(1 + 2))", "unexpected ')'", column: 8),
    ErrorCase(")", "unexpected ')'", column: 1),
    ErrorCase("()", "unexpected ')'", column: 2),
    ErrorCase("2 * (3 + 4", "expected ')' to close '(' opened at column 5", column: 11),
    ErrorCase("((1)", "expected ')' to close '(' opened at column 1", column: 5),
    ErrorCase("(1 + (2)", "expected ')' to close '(' opened at column 1", column: 9),
    ErrorCase("sqrt(2", "expected ')' to close '(' opened at column 5", column: 7),
    ErrorCase("(", "unexpected end of formula", column: 2),
    ErrorCase("max(1, ", "unexpected end of formula", column: 8),
    ErrorCase("sqrt(", "unexpected end of formula", column: 6),
    ErrorCase("1 +", "expected an operand after '+'", column: 4),
    ErrorCase("1 + * 2", "expected an operand after '+'", column: 5),
    ErrorCase("2 ^", "expected an operand after '^'", column: 4),
    ErrorCase("2 * / 3", "expected an operand after '*'", column: 5),
    ErrorCase("-", "expected an operand after '-'", column: 2),
    ErrorCase("(1 - )", "expected an operand after '-'", column: 6),
    ErrorCase("max(1 %, 2)", "expected an operand after '%'", column: 8),
    ErrorCase("2 ^ -", "expected an operand after '-'", column: 6),
    ErrorCase("*2", "unexpected '*'", column: 1),
    ErrorCase("(^2)", "unexpected '^'", column: 2),
    ErrorCase("1.2.3", "malformed number '1.2.3'", column: 1),
    ErrorCase("x + 1.2.3 * 2", "malformed number '1.2.3'", column: 5),
    ErrorCase(".", "malformed number '.'", column: 1),
    ErrorCase("1..2", "malformed number '1..2'", column: 1),
    ErrorCase("1e3.5", "malformed number '1e3.5'", column: 1),
    ErrorCase("1,2", "unexpected ','", column: 2),
    ErrorCase("(1, 2)", "unexpected ','", column: 3),
    ErrorCase(",", "unexpected ','", column: 1),
    ErrorCase("max(,1)", "unexpected ','", column: 5),
    ErrorCase("max(1,,2)", "unexpected ','", column: 7),
    ErrorCase("2x", "missing operator between '2' and 'x'", column: 2),
    ErrorCase("2 x", "missing operator between '2' and 'x'", column: 3),
    ErrorCase("2e", "missing operator between '2' and 'e'", column: 2),
    ErrorCase("2(3)", "missing operator between '2' and '('", column: 2),
    ErrorCase("(1)(2)", "missing operator between ')' and '('", column: 4),
    ErrorCase("x y", "missing operator between 'x' and 'y'", column: 3),
    ErrorCase("2 sqrt(4)", "missing operator between '2' and 'sqrt'", column: 3),
    ErrorCase("foo(1)", "unknown function 'foo'", column: 1),
    ErrorCase("1 + Sqrt(4)", "unknown function 'Sqrt' (did you mean 'sqrt'?)", column: 5),
    ErrorCase("pi(2)", "unknown function 'pi'", column: 1),
    ErrorCase("pow(2)", "'pow' expects 2 arguments, got 1", column: 1),
    ErrorCase("1 + sqrt(1, 2)", "'sqrt' expects 1 argument, got 2", column: 5),
    ErrorCase("sqrt()", "'sqrt' expects 1 argument, got 0", column: 1),
    ErrorCase("min()", "'min' expects at least 1 argument, got 0", column: 1),
    ErrorCase("clamp(1, 2)", "'clamp' expects 3 arguments, got 2", column: 1),
    ErrorCase("atan2(1, 2, 3)", "'atan2' expects 2 arguments, got 3", column: 1),
    ErrorCase("hypot(3)", "'hypot' expects 2 arguments, got 1", column: 1),
    ErrorCase("1\r\n+ )", "expected an operand after '+'", column: 5),
    ErrorCase("1 + ) $", "expected an operand after '+'", column: 5),
  ]

  @Test(arguments: errorCases)
  func parseErrorsCarryMessageAndColumn(_ test: ErrorCase) {
    let error = parseError(test.source)
    #expect(error?.message == test.message)
    #expect(error?.column == test.column)
  }

  @Test func errorDescriptionStartsWithTheColumn() {
    #expect(parseError("(1 + 2))")?.description == "column 8: unexpected ')'")
    #expect(FormulaError(message: "division by zero").description == "division by zero")
  }

  @Test func veryLongTokensAreShortenedInMessages() {
    let name = String(repeating: "f", count: 1000)
    let error = parseError(name + "(1)")
    #expect(error?.message == "unknown function '\(String(repeating: "f", count: 40))…'")
    #expect(error?.column == 1)
  }

  // MARK: - Huge inputs

  @Test func deeplyNestedParenthesesParseWithoutRecursion() throws {
    let depth = 100_000
    let source = String(repeating: "(", count: depth) + "x" + String(repeating: ")", count: depth)
    let formula = try Formula(parsing: source)
    #expect(formula.variables == ["x"])
    #expect(try formula.evaluate([3]) == 3)
  }

  @Test func deeplyNestedUnclosedParenthesesReportTheInnermost() {
    let depth = 100_000
    let error = parseError(String(repeating: "(", count: depth) + "1")
    #expect(error?.message == "expected ')' to close '(' opened at column \(depth)")
    #expect(error?.column == depth + 2)
    #expect(parseError(String(repeating: "(", count: depth))?.message == "unexpected end of formula")
    #expect(parseError("1" + String(repeating: ")", count: depth))?.column == 2)
  }

  @Test func deeplyNestedFunctionCallsAndNegationsParse() throws {
    let depth = 50_000
    let calls = String(repeating: "abs(", count: depth) + "x" + String(repeating: ")", count: depth)
    #expect(try evaluate(calls, [-2]) == 2)
    let negations = String(repeating: "-(", count: depth) + "x" + String(repeating: ")", count: depth)
    #expect(try evaluate(negations, [5]) == 5)
    #expect(try evaluate(String(repeating: "-", count: 100_001) + "x", [5]) == -5)
    let nested = String(repeating: "x - (", count: depth) + "x" + String(repeating: ")", count: depth)
    #expect(try evaluate(nested, [1]) == 1)
  }

  @Test func longPowerChainParsesAndEvaluates() throws {
    let terms = 100_000
    let source = Array(repeating: "x", count: terms).joined(separator: "^")
    let formula = try Formula(parsing: source)
    #expect(formula.variables == ["x"])
    #expect(try formula.evaluate([1]) == 1)
    #expect(formula.maxStackDepth == terms)
    let constants = Array(repeating: "1", count: terms).joined(separator: "^-")
    #expect(try evaluate(constants) == 1)
  }

  @Test func megabyteSumParsesAndEvaluates() throws {
    let terms = 500_001
    let source = Array(repeating: "1", count: terms).joined(separator: "+")
    #expect(source.utf8.count > 1_000_000)
    #expect(try evaluate(source) == Double(terms))

    let variables = Array(repeating: "x", count: 100_000).joined(separator: " + ")
    let formula = try Formula(parsing: variables)
    #expect(formula.maxStackDepth == 2)
    #expect(try formula.evaluate([1]) == 100_000)
  }

  @Test func megabyteInputWithAnErrorAtTheEndReportsItsColumn() {
    let source = String(repeating: "1+", count: 500_000)
    let error = parseError(source)
    #expect(error?.message == "expected an operand after '+'")
    #expect(error?.column == 1_000_001)
  }

  // MARK: - Compiled program

  @Test func constantSubexpressionsAreFolded() throws {
    #expect(try Formula(parsing: "2 * pi * 3 + sqrt(16) - -1").program.count == 1)
    #expect(try Formula(parsing: "x * (2 + 3)").program == [.variable(0), .constant(5), .multiply])
    #expect(try Formula(parsing: "--x").program == [.variable(0)])
    #expect(try Formula(parsing: "max(x)").program == [.variable(0)])
    #expect(try Formula(parsing: "1 / 0").program == [.constant(1), .constant(0), .divide])
  }

  @Test func maxStackDepthIsComputed() throws {
    #expect(try Formula(parsing: "x").maxStackDepth == 1)
    #expect(try Formula(parsing: "x + y + z").maxStackDepth == 2)
    #expect(try Formula(parsing: "x ^ y ^ z").maxStackDepth == 3)
    #expect(try Formula(parsing: "min(x, y, z, w)").maxStackDepth == 4)
    #expect(try Formula(parsing: "clamp(x, y, z) * w").maxStackDepth == 3)
  }

  @Test func formulasAreEqualWhenTheirSourcesAre() throws {
    let a = try Formula(parsing: "x + 1")
    let b = try Formula(parsing: "x + 1")
    let c = try Formula(parsing: "x+1")
    #expect(a == b)
    #expect(a != c)
    #expect(Set([a, b, c]).count == 2)
    #expect(a.source == "x + 1")
  }
}
