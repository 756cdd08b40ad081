import Testing
@testable import FlowNodes

/// Variables and division by zero.
extension FormulaTests {
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
}
