import Testing
@testable import FlowNodes

/// Null semantics (SQL), three-valued logic, string order, `if`, and mixed numeric types.
@Suite struct RowFormulaSemanticsTests {
  private let truthValues: [Cell] = [.bool(true), .bool(false), .null]

  /// Every pair of {true, false, null} as two columns of nine rows.
  private var truthTable: [CellColumn] {
    var left: [Cell] = [], right: [Cell] = []
    for a in truthValues {
      for b in truthValues {
        left.append(a)
        right.append(b)
      }
    }
    return [CellColumn("a", .bool, left), CellColumn("b", .bool, right)]
  }

  @Test func andIsThreeValued() throws {
    let expected: [Cell] = [
      .bool(true), .bool(false), .null,  // true and …
      .bool(false), .bool(false), .bool(false),  // false and …
      .null, .bool(false), .null  // null and …
    ]
    #expect(try evaluateRows("a and b", truthTable) == expected)
  }

  @Test func orIsThreeValued() throws {
    let expected: [Cell] = [
      .bool(true), .bool(true), .bool(true),  // true or …
      .bool(true), .bool(false), .null,  // false or …
      .bool(true), .null, .null  // null or …
    ]
    #expect(try evaluateRows("a or b", truthTable) == expected)
  }

  @Test func notKeepsNull() throws {
    let column = CellColumn("a", .bool, truthValues)
    #expect(try evaluateRows("not a", [column]) == [.bool(false), .bool(true), .null])
    #expect(try evaluateOne("not null") == .null)
  }

  @Test func nullLiteralsInLogic() throws {
    #expect(try evaluateOne("null and false") == .bool(false))
    #expect(try evaluateOne("false and null") == .bool(false))
    #expect(try evaluateOne("null or true") == .bool(true))
    #expect(try evaluateOne("null and true") == .null)
    #expect(try evaluateOne("null or false") == .null)
  }

  @Test func arithmeticFunctionsAndComparisonsPropagateNull() throws {
    let x = CellColumn("x", .number, [.number(4), .null])
    let n = CellColumn("n", .integer, [.integer(2), .null])
    for source in [
      "x + 1", "1 - x", "x * n", "x / 2", "x % 3", "x ^ 2", "-x", "sqrt(x)", "min(x, 1, 2)",
      "clamp(x, 0, 1)", "x < 1", "x == n", "n != 1"
    ] {
      let result = try evaluateRows(source, [x, n])
      #expect(result[1] == .null, "\(source)")
      #expect(result[0] != .null, "\(source)")
    }
    for source in ["null + 1", "null < 1", "\"a\" == null", "sqrt(null)", "-null", "null == null"] {
      #expect(try evaluateOne(source) == .null, "\(source)")
    }
  }

  @Test func isNullIsNeverNull() throws {
    let x = CellColumn("x", .string, [.string("a"), .null, .string("")])
    #expect(try evaluateRows("isNull(x)", [x]) == [.bool(false), .bool(true), .bool(false)])
    #expect(try evaluateOne("isNull(null)") == .bool(true))
    #expect(try evaluateOne("isNull(1 / 0)") == .bool(true))
    #expect(try evaluateOne("isNull(null and false)") == .bool(false))
  }

  @Test func divisionByZeroGivesNull() throws {
    let x = CellColumn("x", .integer, [.integer(0), .integer(2)])
    #expect(try evaluateRows("10 / x", [x]) == [.null, .number(5)])
    #expect(try evaluateRows("10 % x", [x]) == [.null, .number(0)])
    #expect(try evaluateRows("if(x == 0, 0, 10 / x)", [x]) == [.number(0), .number(5)])
  }

  @Test func integerOverflowFailsNamingTheOperator() throws {
    let x = CellColumn("x", .integer, [.integer(1), .integer(Int64.max), .null])
    #expect(try evaluateRows("x * 2", [CellColumn("x", .integer, [.integer(1), .null])]) == [.integer(2), .null])
    #expect(throws: FormulaError(message: "integer overflow in '+' at row 2", column: 3)) {
      try evaluateRows("x + 1", [x])
    }
    #expect(throws: FormulaError(message: "integer overflow in '-' at row 2", column: 4)) {
      try evaluateRows("-x - 2", [x])  // -x is fine; `- 2` overflows on the second row
    }
  }

  @Test func stringsCompareByUnicodeScalars() throws {
    #expect(try evaluateOne(#""Z" < "a""#) == .bool(true))  // no locale: uppercase first
    #expect(try evaluateOne(#""ab" < "abc""#) == .bool(true))
    #expect(try evaluateOne(#""é" == "e\#u{301}""#) == .bool(false))  // no normalization
    #expect(try evaluateOne(#""\#u{FFFF}" < "😀""#) == .bool(true))  // scalar order, not UTF-16
    #expect(try evaluateOne(#""b" >= "b""#) == .bool(true))
    #expect(try evaluateOne(#""" < "a""#) == .bool(true))
  }

  @Test func boolsCompareWithFalseFirst() throws {
    #expect(try evaluateOne("false < true") == .bool(true))
    #expect(try evaluateOne("true == true") == .bool(true))
    #expect(try evaluateOne("true <= false") == .bool(false))
  }

  @Test func integersAndNumbersMix() throws {
    let n = CellColumn("n", .integer, [.integer(2), .integer(3)])
    #expect(try evaluateRows("n == 2.0", [n]) == [.bool(true), .bool(false)])
    #expect(try evaluateRows("n < 2.5", [n]) == [.bool(true), .bool(false)])
    #expect(try evaluateRows("n + 0.5", [n]) == [.number(2.5), .number(3.5)])
    #expect(try evaluateRows("if(n > 2, n, 0.5)", [n]) == [.number(0.5), .number(3)])
    #expect(try evaluateOne("0 / 0 == 0 / 0") == .null)  // division by zero is null, not NaN
    #expect(try evaluateOne("sqrt(-1) == sqrt(-1)") == .bool(false))  // NaN is unordered
    #expect(try evaluateOne("sqrt(-1) != sqrt(-1)") == .bool(true))
  }

  @Test func ifPicksTheSecondBranchOnNullOrFalse() throws {
    let c = CellColumn("c", .bool, [.bool(true), .bool(false), .null])
    #expect(try evaluateRows("if(c, 1, 2)", [c]) == [.integer(1), .integer(2), .integer(2)])
    #expect(try evaluateRows("if(c, \"yes\", null)", [c]) == [.string("yes"), .null, .null])
    #expect(try evaluateRows("if(c, null, false)", [c]) == [.null, .bool(false), .bool(false)])
    #expect(try evaluateOne("if(null, 1, 2)") == .integer(2))
    #expect(try evaluateOne("if(null, null, null)") == .null)
    let x = CellColumn("x", .number, [.number(-1), .null, .number(3)])
    #expect(try evaluateRows("if(x > 0, x, 0)", [x]) == [.number(0), .number(0), .number(3)])
  }

  @Test func emptyTablesGiveEmptyColumnsOfTheType() throws {
    let empty = [CellColumn("x", .integer, [])]
    let formula = try RowFormula(parsing: "if(x > 1, x, 2)")
    let program = try formula.compile(for: RowSchema(names: ["x"], types: [.integer]))
    #expect(program.resultType == .integer)
    let result = try program.evaluate(columns: empty.map(\.vector), rowCount: 0)
    #expect(result.type == .integer)
    #expect(result.cells(count: 0).isEmpty)
  }
}
