import FlowRuntime
import FlowTestSupport
import Testing
@testable import FlowNodes

/// The functions of row formulas (Reference.md, "Formulas"): strings, `round(x, digits)`, `coalesce`, `in`, over
/// nulls, empty strings, non-ASCII text and boundaries.
@Suite struct RowFormulaFunctionTests {
  static let s = CellColumn("s", .string, [.string("Zürich"), .string(""), .null, .string("  N709JB "), .string("a😀b")])

  func column(_ source: String, _ columns: [CellColumn] = [Self.s]) throws -> [Cell] {
    try evaluateRows(source, columns)
  }

  @Test(
    arguments: [
      ("len(\"Zürich\")", Cell.integer(6)),
      ("len(\"\")", .integer(0)),
      ("len(\"a😀b\")", .integer(3)),
      ("len(null)", .null),
      ("lower(\"ÄbC\")", .string("äbc")),
      ("upper(\"zürich\")", .string("ZÜRICH")),
      ("upper(\"abc\")", .string("ABC")),
      ("trim(\"  a b \")", .string("a b")),
      ("trim(\"   \")", .string("")),
      ("substr(\"N709JB\", 2)", .string("709JB")),
      ("substr(\"N709JB\", 1, 2)", .string("N7")),
      ("substr(\"MCO\", 4)", .string("")),
      ("substr(\"MCO\", 2, 10)", .string("CO")),
      ("substr(\"MCO\", 1, 0)", .string("")),
      ("substr(\"MCO\", 0, 2)", .string("M")),
      ("substr(\"MCO\", -1)", .string("MCO")),
      ("substr(\"MCO\", -1, 3)", .string("M")),
      ("substr(\"MCO\", 2, -1)", .string("")),
      ("substr(\"Zürich\", 2, 2)", .string("ür")),
      ("substr(\"a😀b\", 2)", .string("😀b")),
      ("substr(\"a😀b\", 3, 5)", .string("b")),
      ("substr(null, 1)", .null),
      ("substr(\"abc\", null)", .null),
      ("substr(\"abcdef\", 2.9, 2)", .string("bc")),
      ("contains(\"JFK\", \"F\")", .bool(true)),
      ("contains(\"JFK\", \"\")", .bool(true)),
      ("contains(\"\", \"a\")", .bool(false)),
      ("contains(\"Zürich\", \"üri\")", .bool(true)),
      ("startsWith(\"N709JB\", \"N7\")", .bool(true)),
      ("startsWith(\"N\", \"N7\")", .bool(false)),
      ("endsWith(\"N709JB\", \"JB\")", .bool(true)),
      ("endsWith(\"N709JB\", \"N7\")", .bool(false)),
      ("contains(null, \"a\")", .null),
      ("replace(\"a-b-c\", \"-\", \"/\")", .string("a/b/c")),
      ("replace(\"aaa\", \"aa\", \"b\")", .string("ba")),
      ("replace(\"abc\", \"\", \"x\")", .string("abc")),
      ("replace(\"Zürich\", \"ü\", \"ue\")", .string("Zuerich")),
      ("replace(\"abc\", \"b\", null)", .null),
      ("concat(\"UA\", 1545)", .string("UA1545")),
      ("concat(\"a\", \"\", \"b\", 2.5, true)", .string("ab2.5true")),
      ("concat(\"a\", null)", .null),
      ("string(2.50)", .string("2.5")),
      ("string(3.0)", .string("3")),
      ("string(7)", .string("7")),
      ("string(0.1 + 0.2)", .string("0.30000000000000004")),
      ("string(false)", .string("false")),
      ("string(null)", .null),
      ("number(\" 1e3 \")", .number(1000)),
      ("number(\"-2.5\")", .number(-2.5)),
      ("number(null)", .null),
      ("round(2.675, 2)", .number(2.68)),
      ("round(1.005, 2)", .number(1.01)),
      ("round(-2.5)", .number(-3)),
      ("round(1234, -2)", .number(1200)),
      ("round(1250, -2)", .number(1300)),
      ("round(-1250, -2)", .number(-1300)),
      ("round(1234.5678, 1)", .number(1234.6)),
      ("round(1234567890123.455, 2)", .number(1234567890123.46)),
      ("round(0.285, 2)", .number(0.29)),
      ("round(-0.285, 2)", .number(-0.29)),
      ("round(0.0015, 3)", .number(0.002)),
      ("round(1e-20, 25)", .number(1e-20)),
      ("round(123.456, 400)", .number(123.456)),
      ("round(5, -3)", .number(0)),
      ("round(null, 1)", .null),
      ("round(1.5, null)", .null),
      ("coalesce(null, 2)", .integer(2)),
      ("coalesce(null, 2, 3.5)", .number(2)),
      ("coalesce(null, null)", .null),
      ("coalesce(\"a\")", .string("a")),
      ("2 in (1, 2)", .bool(true)),
      ("3 in (1, 2)", .bool(false)),
      ("3 in (1, null)", .null),
      ("1 in (1, null)", .bool(true)),
      ("null in (1, 2)", .null),
      ("\"b\" in (\"a\", \"b\")", .bool(true)),
      ("1 + 1 in (2)", .bool(true)),
      ("not 1 in (2) and true", .bool(true)),
      ("2.0 in (1, 2)", .bool(true))
    ] as [(String, Cell)])
  func evaluatesOneValue(source: String, expected: Cell) throws {
    let result = try evaluateOne(source)
    #expect(result.matches(expected), "\(source) gave \(result)")
  }

  @Test func stringFunctionsOverAColumnWithNulls() throws {
    #expect(try column("len(s)") == [.integer(6), .integer(0), .null, .integer(9), .integer(3)])
    #expect(try column("upper(s)") == [.string("ZÜRICH"), .string(""), .null, .string("  N709JB "), .string("A😀B")])
    #expect(try column("lower(s)") == [.string("zürich"), .string(""), .null, .string("  n709jb "), .string("a😀b")])
    #expect(try column("trim(s)") == [.string("Zürich"), .string(""), .null, .string("N709JB"), .string("a😀b")])
    #expect(try column("substr(s, 2, 3)") == [.string("üri"), .string(""), .null, .string(" N7"), .string("😀b")])
    #expect(try column("contains(s, \"i\")") == [.bool(true), .bool(false), .null, .bool(false), .bool(false)])
    #expect(
      try column("concat(s, \"!\")") == [
        .string("Zürich!"), .string("!"), .null, .string("  N709JB !"), .string("a😀b!")
      ])
    #expect(
      try column("coalesce(s, \"?\")") == [
        .string("Zürich"), .string(""), .string("?"), .string("  N709JB "), .string("a😀b")
      ])
    #expect(try column("s in (\"\", \"Zürich\")") == [.bool(true), .bool(true), .null, .bool(false), .bool(false)])
    #expect(try column("replace(s, \"i\", \"I\")")[0] == .string("ZürIch"))
  }

  @Test func positionsFromAColumnAndNumbersFromText() throws {
    let n = CellColumn("n", .integer, [.integer(1), .integer(3), .null, .integer(-1)])
    let t = CellColumn("t", .string, [.string("abcd"), .string("abcd"), .string("abcd"), .string("abcd")])
    #expect(try column("substr(t, n, 2)", [n, t]) == [.string("ab"), .string("cd"), .null, .string("")])
    let x = CellColumn("x", .number, [.number(2.675), .number(-0.125), .null, .number(1e300)])
    #expect(try column("round(x, 2)", [x]) == [.number(2.68), .number(-0.13), .null, .number(1e300)])
    let texts = CellColumn("v", .string, [.string("12"), .null, .string("-0.5")])
    #expect(try column("number(v)", [texts]) == [.number(12), .null, .number(-0.5)])
  }

  @Test func numberOfNonNumericTextFailsNamingRowAndText() throws {
    let texts = CellColumn("v", .string, [.string("12"), .null, .string("twelve")])
    #expect(throws: FormulaError.self) { try column("number(v)", [texts]) }
    do {
      _ = try column("number(v)", [texts])
    } catch {
      #expect((error as? FormulaError)?.message == "'number' at row 3: not a number: \"twelve\"")
    }
  }

  @Test(arguments: [
    ("len(1)", "'len' needs a string as argument 1, got integer"),
    ("substr(\"a\", \"b\")", "'substr' needs a number as argument 2, got string"),
    ("coalesce(1, \"a\")", "the arguments of 'coalesce' have different types: integer and string"),
    ("1 in (\"a\")", "cannot look for integer among string items with 'in'"),
    ("lenght(\"a\")", "unknown function 'lenght' (did you mean 'len'?)"),
    ("uper(\"a\")", "unknown function 'uper' (did you mean 'upper'?)"),
    ("1 in 2", "expected '(' after 'in', as in 'x in (1, 2)'"),
    ("in (1)", "missing operator between 'in' and '('"),
    ("round(1, 2, 3)", "'round' expects 1 to 2 arguments, got 3")
  ])
  func wrongArgumentsAreErrorsAtLoad(source: String, message: String) {
    #expect(rowFormulaError(source)?.message == message, "\(source)")
  }

  @Test func aColumnCalledInStaysAColumn() throws {
    let column = CellColumn("in", .integer, [.integer(1), .integer(5)])
    #expect(try evaluateRows("in in (1, 2) or in > 4", [column]) == [.bool(true), .bool(true)])
    #expect(try evaluateRows("in + 1", [column]) == [.integer(2), .integer(6)])
  }

  @Test func aTypeKnownOnlyFromTheTableFailsAtCompile() {
    let n = CellColumn("n", .integer, [.integer(1)])
    #expect(rowFormulaError("upper(n)", [n])?.message == "'upper' needs a string as argument 1, got integer")
  }

  @Test func expressionRoundsToDigitsAndSuggestsNames() throws {
    #expect(try Formula(parsing: "round(2.675, 2)").evaluate([]) == 2.68)
    #expect(try Formula(parsing: "round(1234, -2)").evaluate([]) == 1200)
    #expect(try Formula(parsing: "round(x, 1)").evaluate([-0.25]) == -0.3)
    #expect(try Formula(parsing: "round(x)").evaluate([2.5]) == 3)
    #expect(throws: FormulaError(message: "unknown function 'lenght'", column: 1)) { try Formula(parsing: "lenght(1)") }
    #expect(throws: FormulaError(message: "unknown function 'sqr' (did you mean 'sqrt'?)", column: 1)) {
      try Formula(parsing: "sqr(1)")
    }
  }

  @Test func roundAgreesWithTheShortestDecimalOnRandomValues() {
    var random = SeededRandom(seed: 17)
    for _ in 0..<2000 {
      let cents = Int64(random.next() % 2_000_000) - 1_000_000
      let x = Double("\(cents / 1000).\(String(cents.magnitude % 1000).leftPadded(3))5") ?? 0
      let digits = 3
      // x has four decimals ending in 5: a decimal half at 3 digits, rounded away from zero.
      let expected = Double("\(cents / 1000).\(String((cents.magnitude % 1000) + 1).leftPadded(3))") ?? 0
      if cents.magnitude % 1000 == 999 || cents / 1000 == 0 { continue }
      #expect(formulaRound(x, digits: Double(digits)) == (x < 0 ? -expected.magnitude : expected), "\(x)")
    }
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
