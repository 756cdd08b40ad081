import FlowGraph
import FlowRuntime
import Testing
@testable import FlowNodes

/// The date and time functions of row formulas (Reference.md, "Formulas"): parts as written, `date`, `days`
/// by UTC calendar date, `addDays` keeping what follows the date, nulls and failures.
@Suite struct DateFunctionTests {
  private func texts(_ values: [String?]) -> [CellColumn] {
    [CellColumn("t", .string, values.map { $0.map(Cell.string) ?? .null })]
  }

  private func ints(_ values: [Int64?]) -> [Cell] { values.map { $0.map(Cell.integer) ?? .null } }

  @Test func partsAreReadAsWritten() throws {
    let column = texts([
      "2013-01-01", "2013-01-01T05:17:09", "2024-02-29T23:59:59.999Z", "2013-01-01T23:30:00-05:00",
      "1999-12-31 07:08", nil
    ])
    #expect(try evaluateRows("year(t)", column) == ints([2013, 2013, 2024, 2013, 1999, nil]))
    #expect(try evaluateRows("month(t)", column) == ints([1, 1, 2, 1, 12, nil]))
    #expect(try evaluateRows("day(t)", column) == ints([1, 1, 29, 1, 31, nil]))
    #expect(try evaluateRows("hour(t)", column) == ints([0, 5, 23, 23, 7, nil]))
    #expect(try evaluateRows("minute(t)", column) == ints([0, 17, 59, 30, 8, nil]))
    #expect(try evaluateRows("second(t)", column) == ints([0, 9, 59, 0, 0, nil]))
  }

  @Test func weekdayIsISONumbered() throws {
    // 2024-02-26 is a Monday; 2024-03-03 a Sunday.
    let column = texts([
      "2024-02-26", "2024-02-27", "2024-02-28T01:00:00+14:00", "2024-02-29", "2024-03-01",
      "2024-03-02T23:59:59-12:00", "2024-03-03", "0000-01-01", "9999-12-31", "1970-01-01"
    ])
    #expect(try evaluateRows("weekday(t)", column) == ints([1, 2, 3, 4, 5, 6, 7, 6, 5, 4]))
  }

  @Test func nullInGivesNullOut() throws {
    #expect(try evaluateOne("year(null)") == .null)
    #expect(try evaluateOne("days(null, \"2013-01-01\")") == .null)
    #expect(try evaluateOne("addDays(\"2013-01-01\", null)") == .null)
    #expect(try evaluateOne("date(2024, null, 1)") == .null)
    let column = [
      CellColumn("a", .string, [.string("2013-01-01"), .null, .string("2013-01-05")]),
      CellColumn("n", .integer, [.null, .integer(1), .integer(2)])
    ]
    #expect(try evaluateRows("addDays(a, n)", column) == [.null, .null, .string("2013-01-07")])
    #expect(try evaluateRows("days(a, \"2013-01-10\")", column) == ints([9, nil, 5]))
    #expect(try evaluateRows("date(2020, n, n)", column) == [.null, .string("2020-01-01"), .string("2020-02-02")])
  }

  @Test func dateWritesYearMonthDay() throws {
    #expect(try evaluateOne("date(2024, 2, 29)") == .string("2024-02-29"))
    #expect(try evaluateOne("date(7, 12, 31.0)") == .string("0007-12-31"))
    #expect(try evaluateOne("year(date(2024, 2, 29))") == .integer(2024))
  }

  @Test(arguments: [
    (2024, 2, 30.0), (2023, 2, 29), (2024, 13, 1), (10000, 1, 1), (2024, 1, 1.5), (-1, 1, 1), (2024, 0, 1)
  ])
  func dateOfNoDateFailsNamingTheRow(_ year: Int64, _ month: Int64, _ day: Double) {
    let columns = [
      CellColumn("y", .integer, [.integer(2024), .null, .integer(year)]),
      CellColumn("m", .integer, [.integer(2), .integer(1), .integer(month)]),
      CellColumn("d", .number, [.number(29), .number(1), .number(day)])
    ]
    let expected = "'date', row 3: date(\(year), \(month), \(day)) is not a date of the years 0000–9999"
    #expect(rowEvaluationError("date(y, m, d)", columns) == expected)
  }

  @Test func daysCountsUTCCalendarDates() throws {
    #expect(try evaluateOne("days(\"2013-01-01\", \"2013-03-01\")") == .integer(59))
    #expect(try evaluateOne("days(\"2024-01-01\", \"2024-03-01\")") == .integer(60))
    #expect(try evaluateOne("days(\"2013-12-31T23:59:59\", \"2014-01-01T00:00:00\")") == .integer(1))
    #expect(try evaluateOne("days(\"2014-01-01\", \"2013-01-01\")") == .integer(-365))
    // 23:30 at -05:00 is 04:30 the next day in UTC; 01:00 at +02:00 is 23:00 the day before.
    #expect(try evaluateOne("days(\"2013-01-01T23:30:00-05:00\", \"2013-01-02\")") == .integer(0))
    #expect(try evaluateOne("days(\"2013-01-02T01:00:00+02:00\", \"2013-01-02T00:00:00Z\")") == .integer(1))
    #expect(try evaluateOne("days(\"2013-01-01T12:00:00.5Z\", \"2013-01-01\")") == .integer(0))
  }

  @Test func addDaysMovesTheDateAndKeepsTheRestAsWritten() throws {
    #expect(try evaluateOne("addDays(\"2024-02-28\", 1)") == .string("2024-02-29"))
    #expect(try evaluateOne("addDays(\"2023-02-28\", 1)") == .string("2023-03-01"))
    #expect(
      try evaluateOne("addDays(\"2013-12-31T23:30:00.250-05:00\", 1)") == .string("2014-01-01T23:30:00.250-05:00"))
    #expect(try evaluateOne("addDays(\"2013-01-31T05:17:00Z\", 29)") == .string("2013-03-01T05:17:00Z"))
    #expect(try evaluateOne("addDays(\"2013-01-01 05:00:00\", -1)") == .string("2012-12-31 05:00:00"))
    #expect(try evaluateOne("addDays(\"2024-02-29\", 366.0)") == .string("2025-03-01"))
    #expect(try evaluateOne("addDays(\"2024-02-29\", -1461)") == .string("2020-02-29"))
  }

  @Test(arguments: [
    (
      "addDays(\"9999-12-31\", 1)",
      "'addDays', row 1: \"9999-12-31\" moved by 1 days leaves the years 0000–9999"
    ),
    ("addDays(\"2000-01-01\", 0.5)", "'addDays', row 1: 0.5 is not a whole number of days in range")
  ])
  func addDaysOutOfRangeFails(_ source: String, _ message: String) {
    #expect(rowEvaluationError(source) == message)
  }

  @Test(arguments: [
    "2023-02-29", "2013-13-01", "2013-00-10", "2013-04-31", "13-01-01", "2013-1-01", "2013/01/01",
    "2013-01-01T24:00:00", "2013-01-01T05:60", "2013-01-01T05:17:60", "2013-01-01T05", "2013-01-01T05:17:00.",
    "2013-01-01Z", "2013-01-01T05:17:00+5:00", "2013-01-01T05:17:00+05:00x", "2013-01-01T05:17:00z",
    " 2013-01-01", "2013-01-01 ", "", "20x1-01-01", "2013-0a-01", "2013-01-3 ", "２０１３-01-01",
    "2013-01-01T05:17:00+24:00"
  ])
  func textThatIsNotADateFailsNamingColumnRowAndText(_ text: String) {
    let column = [CellColumn("when", .string, [.string("2013-01-01"), .null, .string(text)])]
    let expected = "'year' of column 'when', row 3: \"\(text)\" is not an ISO-8601 date"
    #expect(rowEvaluationError("year(when)", column) == expected)
  }

  @Test func theMessageNamesTheArgumentAtFault() {
    let column = [CellColumn("a", .string, [.string("2013-01-01")]), CellColumn("b", .string, [.string("soon")])]
    #expect(rowEvaluationError("days(a, b)", column) == "'days' of column 'b', row 1: \"soon\" is not an ISO-8601 date")
    #expect(rowEvaluationError("days(b, a)", column) == "'days' of column 'b', row 1: \"soon\" is not an ISO-8601 date")
    #expect(rowEvaluationError("month(if(true, b, a))", column) == "'month', row 1: \"soon\" is not an ISO-8601 date")
  }

  @Test func wrongArgumentTypesAreTypeErrors() {
    #expect(rowFormulaError("year(2013)")?.message == "'year' needs an ISO-8601 date text, got integer")
    #expect(rowFormulaError("date(\"2013\", 1, 1)")?.message == "'date' needs a whole number, got string")
    #expect(rowFormulaError("addDays(\"2013-01-01\", \"1\")")?.message == "'addDays' needs a whole number, got string")
    #expect(rowFormulaError("year(\"2013-01-01\") + 1") == nil)
    #expect(rowFormulaError("year(\"2013-01-01\") == \"2013\"") != nil)
    #expect(FormulaBuiltin.suggestions(for: "yaer", in: .row).contains("year"))
    #expect(FormulaBuiltin.lookUp("year", in: .scalar) == nil)
  }

  @Test func deriveFailsNamingTheEntryTheColumnAndTheRowOfItsInput() throws {
    let input = try Table([CellColumn("time_hour", .string, [.string("2013-01-01 05:00:00"), .string("2013-02-30")])])
    var pipeline = try TablePipeline(
      "derive",
      [
        "columns": .object(
          JSONObject([
            JSONMember(key: "y", value: .string("year(time_hour)"))
          ]))
      ])
    let outcome = try pipeline.run(input)
    #expect(
      outcome.failure
        == "formula for column 'y': 'year' of column 'time_hour', row 2: \"2013-02-30\" is not an ISO-8601 date")
  }
}

/// The message of evaluating `source` over `columns` (nil when it evaluates).
func rowEvaluationError(_ source: String, _ columns: [CellColumn] = []) -> String? {
  do {
    _ = try evaluateRows(source, columns)
    return nil
  } catch {
    return "\(error)"
  }
}
