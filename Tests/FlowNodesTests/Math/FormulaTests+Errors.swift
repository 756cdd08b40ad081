import Testing
@testable import FlowNodes

/// Parse errors, huge inputs and the compiled program.
extension FormulaTests {
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
    ErrorCase("1 + ) $", "expected an operand after '+'", column: 5)
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
