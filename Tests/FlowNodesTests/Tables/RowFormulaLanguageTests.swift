import Testing
@testable import FlowNodes

/// Syntax, precedence, literals and errors of the row-formula language.
@Suite struct RowFormulaLanguageTests {
  @Test(
    arguments: [
      ("1 + 2 * 3 == 7", Cell.bool(true)),
      ("-2^2", .number(-4)),
      ("2 ^ 3 ^ 2", .number(512)),
      ("not 1 < 2", .bool(false)),
      ("not true or true", .bool(true)),  // (not true) or true
      ("not true and false", .bool(false)),  // (not true) and false
      ("true or false and false", .bool(true)),  // and binds tighter than or
      ("false and true or true", .bool(true)),
      ("(1 < 2) == true", .bool(true)),
      ("not (1 > 2)", .bool(true)),
      ("1 + 2", .integer(3)),
      ("7 - 10", .integer(-3)),
      ("6 * 7", .integer(42)),
      ("-5", .integer(-5)),
      ("7 / 2", .number(3.5)),
      ("7 % 2", .number(1)),
      ("1.0 + 2", .number(3)),
      ("1e2", .number(100)),
      ("2 * pi > 6", .bool(true))
    ] as [(String, Cell)])
  func evaluatesWithPrecedence(source: String, expected: Cell) throws {
    let result = try evaluateOne(source)
    #expect(result.matches(expected), "\(source) gave \(result)")
  }

  @Test func stringLiteralsDecodeEscapes() throws {
    #expect(try evaluateOne(#""a\"b""#) == .string("a\"b"))
    #expect(try evaluateOne(#""back\\slash""#) == .string("back\\slash"))
    #expect(try evaluateOne(#""""#) == .string(""))
    #expect(try evaluateOne(#""héllo 😀""#) == .string("héllo 😀"))
    #expect(try evaluateOne(#""a\"b" == "a\"b""#) == .bool(true))
  }

  @Test func literalsOfEveryType() throws {
    #expect(try evaluateOne("true") == .bool(true))
    #expect(try evaluateOne("false") == .bool(false))
    #expect(try evaluateOne("null") == .null)
    #expect(try evaluateOne("12") == .integer(12))
    #expect(try evaluateOne("12.5") == .number(12.5))
    #expect(try evaluateOne("9007199254740993") == .integer(9_007_199_254_740_993))  // exact, not via Double
    #expect(try evaluateOne("9223372036854775807") == .integer(.max))
    #expect(try evaluateOne("9223372036854775808") == .number(9_223_372_036_854_775_808))
  }

  @Test func backtickedColumnNames() throws {
    let columns = [
      CellColumn("body mass", .integer, [.integer(3750), .integer(4200)]),
      CellColumn("and", .bool, [.bool(true), .bool(false)]),
      CellColumn("e", .integer, [.integer(1), .integer(2)])
    ]
    #expect(try evaluateRows("`body mass` > 4000", columns) == [.bool(false), .bool(true)])
    #expect(try evaluateRows("`and` and true", columns) == [.bool(true), .bool(false)])
    #expect(try evaluateRows("`e` + 1", columns) == [.integer(2), .integer(3)])
    #expect(try RowFormula(parsing: "`body mass` + x + `body mass`").columns == ["body mass", "x"])
  }

  @Test func bareWordsAreColumnsOrWords() throws {
    let columns = [CellColumn("x", .number, [.number(2)])]
    #expect(try evaluateRows("x * e > 5", columns) == [.bool(true)])  // e is the constant
    #expect(try RowFormula(parsing: "if(isNull(a), b, sqrt(c))").columns == ["a", "b", "c"])
  }

  @Test(
    arguments: [
      ("a < b < c", 7, "comparisons do not chain"),
      ("a == b != c", 8, "comparisons do not chain"),
      ("\"abc", 1, "unterminated string"),
      ("x == \"a\\nb\"", 8, "unknown escape '\\n'"),
      ("a = b", 3, "unexpected '=' (write '==' to compare)"),
      ("a => b", 3, "unexpected '=>' (write '>=')"),
      ("a =< b", 3, "unexpected '=<' (write '<=')"),
      ("a ! b", 3, "unexpected '!'"),
      ("`body mass", 1, "unterminated `column name`"),
      ("`` + 1", 1, "empty `column name`"),
      ("if(a, b)", 1, "'if' expects 3 arguments, got 2"),
      ("isNull()", 1, "'isNull' expects 1 argument, got 0"),
      ("1 + foo(2)", 5, "unknown function 'foo'"),
      ("a and", 6, "expected an operand after 'and'"),
      ("and a", 1, "expected an operand before 'and'"),
      ("not", 4, "expected an operand after 'not'"),
      ("(", 2, "unexpected end of formula"),
      ("(a", 3, "expected ')' to close '(' opened at column 1"),
      ("a b", 3, "missing operator between 'a' and 'b'"),
      ("a == ", 6, "expected an operand after '=='"),
      ("a $ b", 3, "unexpected character '$'"),
      ("\"x\" < 1", 5, "cannot compare string with integer using '<'"),
      ("1 + \"a\"", 3, "'+' needs numbers, got integer and string"),
      ("if(1, 2, 3)", 1, "'if' needs a bool condition, got integer"),
      ("if(true, 1, \"a\")", 1, "the branches of 'if' have different types: integer and string"),
      ("not 1", 1, "'not' needs a bool, got integer"),
      ("true and 2", 6, "'and' needs bools, got bool and integer"),
      ("-\"a\"", 1, "'-' needs a number, got string"),
      ("sqrt(true)", 1, "'sqrt' needs numbers, got bool")
    ] as [(String, Int, String)])
  func reportsErrorsAtLoadWithTheirColumn(source: String, column: Int, message: String) throws {
    let error = try #require(rowFormulaError(source))
    #expect(error.column == column, "\(source): \(error)")
    #expect(error.message.hasPrefix(message), "\(source): \(error)")
    // Everything here is found by parsing alone, before any table arrives.
    #expect(throws: FormulaError.self) { try RowFormula(parsing: source) }
  }

  @Test func emptyFormulaIsAnError() {
    #expect(rowFormulaError("") == FormulaError(message: "empty formula", column: 1))
    #expect(rowFormulaError("   ")?.message == "empty formula")
  }

  @Test func typeErrorsAgainstTheSchemaNameTheOperatorColumn() throws {
    let columns = [
      CellColumn("name", .string, [.string("x")]), CellColumn("n", .integer, [.integer(1)]),
      CellColumn("flag", .bool, [.bool(true)])
    ]
    // These parse (the column types are unknown at load) but fail against the table.
    for source in ["name == 1", "n + name", "flag < name", "if(n, 1, 2)", "not n"] {
      _ = try RowFormula(parsing: source)
    }
    #expect(
      rowFormulaError("name == 1", columns)
        == FormulaError(message: "cannot compare string with integer using '=='", column: 6))
    #expect(
      rowFormulaError("n + name", columns)
        == FormulaError(message: "'+' needs numbers, got integer and string", column: 3))
    #expect(rowFormulaError("if(n, 1, 2)", columns)?.message == "'if' needs a bool condition, got integer")
    #expect(rowFormulaError("n == 1.5 and flag == true", columns) == nil)
  }

  @Test func missingColumnNamesItAndTheTablesColumns() {
    let columns = [CellColumn("a", .integer, []), CellColumn("b", .integer, []), CellColumn("c", .integer, [])]
    #expect(rowFormulaError("a + x", columns)?.description == "no column 'x' in the table (columns: a, b, c)")
    let many = (0..<25).map { CellColumn("c\($0)", .integer, []) }
    let message = rowFormulaError("zz", many)?.message ?? ""
    #expect(message.hasSuffix("c18, c19, … 5 more)"))
  }

  @Test func deepNestingDoesNotRecurse() throws {
    let depth = 20_000
    let source = String(repeating: "(", count: depth) + "1" + String(repeating: " + 1)", count: depth)
    #expect(try evaluateOne(source) == .integer(Int64(depth + 1)))
    let negations = String(repeating: "not ", count: depth) + "true"
    #expect(try evaluateOne(negations) == .bool(true))
  }

  @Test func calculatorLanguageStillRejectsRowSyntax() throws {
    for (source, message) in [
      ("a < b", "unexpected character '<'"), ("\"a\"", "unexpected character '\"'"),
      ("`a`", "unexpected character '`'"), ("a == b", "unexpected character '='")
    ] {
      #expect(throws: FormulaError.self) { try Formula(parsing: source) }
      do {
        _ = try Formula(parsing: source)
      } catch {
        #expect(error.message == message, "\(source)")
      }
    }
    // Words of the row language are plain variables in `expression`.
    #expect(try Formula(parsing: "not + and * null").variables == ["not", "and", "null"])
  }
}
