import Testing
@testable import FlowNodes

@Suite struct FormulaTests {
  // MARK: - Helpers

  func evaluate(_ source: String, _ values: [Double] = []) throws -> Double {
    try Formula(parsing: source).evaluate(values)
  }

  func parseError(_ source: String) -> FormulaError? {
    do {
      _ = try Formula(parsing: source)
      return nil
    } catch {
      return error
    }
  }

  func evaluationError(_ source: String, _ values: [Double] = []) throws -> FormulaError? {
    let formula = try Formula(parsing: source)
    do {
      _ = try formula.evaluate(values)
      return nil
    } catch {
      return error
    }
  }

  func isClose(_ actual: Double, _ expected: Double) -> Bool {
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
    Case("9007199254740993", 9007199254740992), Case("1234567890123456", 1234567890123456), Case("0.1", 0.1)
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
    Case("10 - 3 - 2", 5), Case("1 - 2 + 3", 2), Case("10 + 2 - 3 + 1", 10)
  ])
  func additionAndSubtractionAreLeftAssociative(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test(arguments: [
    Case("12 / 3 / 2", 2), Case("100 / 10 * 2", 20), Case("2 * 3 % 4", 2),
    Case("7 % 4 * 3", 9), Case("20 % 7 % 4", 2), Case("18 / 3 % 4", 2)
  ])
  func multiplicativeOperatorsAreLeftAssociative(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test(arguments: [
    Case("2 + 3 * 4", 14), Case("2 * 3 + 4", 10), Case("10 - 4 / 2", 8),
    Case("1 + 7 % 4", 4), Case("(2 + 3) * 4", 20), Case("2 * (3 + 4)", 14)
  ])
  func multiplicationBindsTighterThanAddition(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test(arguments: [
    Case("-2^2", -4), Case("(-2)^2", 4), Case("-2^2 * 3", -12), Case("- 3 ^ 2", -9),
    Case("-pi^0", -1)
  ])
  func powerBindsTighterThanUnaryMinus(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test func powerBindsTighterThanUnaryMinusOnVariables() throws {
    #expect(try evaluate("-x^2", [3]) == -9)
    #expect(try evaluate("-x^2", [-3]) == -9)
  }

  @Test(arguments: [
    Case("2^3^2", 512), Case("(2^3)^2", 64), Case("2^2^3", 256), Case("4^0.5^2", 2.0.squareRoot())
  ])
  func powerIsRightAssociative(_ test: Case) throws {
    #expect(isClose(try evaluate(test.source), test.expected))
  }

  @Test(arguments: [
    Case("2^-1", 0.5), Case("2^-1 * 4", 2), Case("2^-3^2", 1.0 / 512), Case("2^+2", 4),
    Case("2^--1", 2), Case("10^-2", 0.01)
  ])
  func unaryMinusIsAllowedAsTheExponent(_ test: Case) throws {
    #expect(isClose(try evaluate(test.source), test.expected))
  }

  @Test(arguments: [
    Case("2 * 3^2", 18), Case("3^2 * 2", 18), Case("2^3 / 2", 4), Case("1 + 2^3", 9),
    Case("2^3 % 5", 3)
  ])
  func powerBindsTighterThanMultiplication(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test(arguments: [
    Case("-3 * -2", 6), Case("2 * -3", -6), Case("-2 * 3", -6), Case("--3", 3),
    Case("-+-3", 3), Case("+3", 3), Case("2 - -3", 5), Case("2 + -3", -1),
    Case("-(2 + 3)", -5), Case("6 / -2", -3), Case("-7 % 3 * 2", -2), Case("---3", -3)
  ])
  func unaryMinusAndPlusBindTighterThanMultiplication(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test(arguments: [
    Case("-7 % 3", -1), Case("7 % -3", 1), Case("7 % 3", 1), Case("-7 % -3", -1),
    Case("7.5 % 2", 1.5), Case("-7.5 % 2", -1.5), Case("6 % 3", 0)
  ])
  func remainderKeepsTheSignOfTheDividend(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }

  @Test(arguments: [
    Case("round(2.5)", 3), Case("round(-2.5)", -3), Case("round(0.5)", 1),
    Case("round(-0.5)", -1), Case("round(1.5)", 2), Case("round(1.4999)", 1),
    Case("round(-1.6)", -2)
  ])
  func roundRoundsHalvesAwayFromZero(_ test: Case) throws {
    #expect(try evaluate(test.source) == test.expected)
  }
}
