import Testing
@testable import FlowNodes

/// Functions: every function of the contract, folded and unfolded alike.
extension FormulaTests {
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
    Case("clamp(0.25, 0, 1)", 0.25)
  ]

  @Test(arguments: functionCases)
  func everyFunctionComputesItsValue(_ test: Case) throws {
    #expect(isClose(try evaluate(test.source), test.expected))
  }

  /// Replaces every number literal by a variable (`v0`, `v1`, …), so nothing is constant-folded.
  func unfolded(_ source: String) -> (source: String, values: [Double]) {
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
      "hypot", "clamp"
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
}
