import Foundation
import FlowRuntime
import FlowTestSupport
import Testing
@testable import FlowNodes

/// The analyst's row functions: `like`, `format`, `weekdayName`, `monthName`, `inTimeZone`
/// (time zones across DST transitions, half-hour and 45-minute offsets).
@Suite struct AnalystFunctionTests {
  @Test(arguments: [
    ("like(\"N709JB\", \"N7%B\")", Cell.bool(true)),
    ("like(\"N709JB\", \"n7%\")", .bool(false)),
    ("like(\"N709JB\", \"N7_9JB\")", .bool(true)),
    ("like(\"N709JB\", \"N7_JB\")", .bool(false)),
    ("like(\"\", \"%\")", .bool(true)),
    ("like(\"\", \"_\")", .bool(false)),
    ("like(\"Zürich\", \"Z_rich\")", .bool(true)),
    ("like(\"a😀b\", \"a_b\")", .bool(true)),
    ("like(\"a😀b\", \"a__b\")", .bool(false)),
    ("like(\"100%\", \"100\\\\%\")", .bool(true)),
    ("like(\"1000\", \"100\\\\%\")", .bool(false)),
    ("like(\"a_b\", \"a\\\\_b\")", .bool(true)),
    ("like(\"axb\", \"a\\\\_b\")", .bool(false)),
    ("like(\"a\\\\b\", \"a\\\\\\\\b\")", .bool(true)),
    ("like(\"PROMO BRUSHED TIN\", \"PROMO%\")", .bool(true)),
    ("like(\"special requests\", \"%special%requests%\")", .bool(true)),
    ("like(null, \"%\")", .null),
    ("like(\"a\", null)", .null),
    ("format(0.2613, \".1%\")", .string("26.1%")),
    ("format(0.25, \".1%\")", .string("25.0%")),
    ("format(1234567.891, \",.2f\")", .string("1,234,567.89")),
    ("format(4202, \".3e\")", .string("4.202e+03")),
    ("format(42, \"d\")", .string("42")),
    ("format(1437000, \",\")", .string("1,437,000")),
    ("format(null, \".2f\")", .null),
    ("weekdayName(\"2024-02-29\")", .string("Thursday")),
    ("weekdayName(\"2013-01-06T23:59:00Z\")", .string("Sunday")),
    ("monthName(\"2013-07-04\")", .string("July")),
    ("monthName(\"2013-12-31 23:00:00\")", .string("December")),
    ("monthName(null)", .null)
  ])
  func callsGiveTheirValues(source: String, expected: Cell) throws {
    #expect(try evaluateOne(source).matches(expected), "\(source)")
  }

  @Test func formatOfAnUnknownSpecOrAFractionForDFailsNamingTheRow() throws {
    let x = CellColumn("x", .number, [.number(1), .number(2.5)])
    #expect(throws: FormulaError.self) { try evaluateRows("format(x, \"d\")", [x]) }
    do { _ = try evaluateRows("format(x, \"d\")", [x]) } catch let error as FormulaError {
      #expect(error.message.contains("row 2") && error.message.contains("2.5"), "\(error.message)")
    }
    do { _ = try evaluateRows("format(x, \"zz\")", [x]) } catch let error as FormulaError {
      #expect(error.message.contains("unknown number format \"zz\""), "\(error.message)")
    }
    #expect(rowFormulaError("format(\"a\", \".2f\")")?.message.contains("'format' needs a number") == true)
  }

  /// (instant, zone, local time with offset), across DST transitions and odd offsets.
  static let zoned: [(String, String, String)] = [
    ("2013-01-01T05:17:00Z", "America/New_York", "2013-01-01T00:17:00-05:00"),
    ("2013-01-01T05:17:00", "America/New_York", "2013-01-01T00:17:00-05:00"),
    ("2013-07-01T05:17:00Z", "America/New_York", "2013-07-01T01:17:00-04:00"),
    // 2013-03-10: 02:00 EST becomes 03:00 EDT (07:00 UTC).
    ("2013-03-10T06:59:59Z", "America/New_York", "2013-03-10T01:59:59-05:00"),
    ("2013-03-10T07:00:00Z", "America/New_York", "2013-03-10T03:00:00-04:00"),
    // 2013-11-03: 02:00 EDT becomes 01:00 EST (06:00 UTC): 01:30 happens twice.
    ("2013-11-03T05:30:00Z", "America/New_York", "2013-11-03T01:30:00-04:00"),
    ("2013-11-03T06:30:00Z", "America/New_York", "2013-11-03T01:30:00-05:00"),
    ("2013-01-01T05:17:00-05:00", "Europe/London", "2013-01-01T10:17:00+00:00"),
    // 2013-03-31 01:00 UTC: GMT becomes BST.
    ("2013-03-31T00:59:00Z", "Europe/London", "2013-03-31T00:59:00+00:00"),
    ("2013-03-31T01:00:00Z", "Europe/London", "2013-03-31T02:00:00+01:00"),
    ("2013-10-27T00:30:00Z", "Europe/London", "2013-10-27T01:30:00+01:00"),
    ("2013-10-27T01:30:00Z", "Europe/London", "2013-10-27T01:30:00+00:00"),
    // Lord Howe moves by 30 minutes: +10:30 standard, +11:00 summer (from 2:00 local, first
    // Sunday of October; back at 2:00 summer time, first Sunday of April).
    ("2013-10-05T15:29:00Z", "Australia/Lord_Howe", "2013-10-06T01:59:00+10:30"),
    ("2013-10-05T15:30:00Z", "Australia/Lord_Howe", "2013-10-06T02:30:00+11:00"),
    ("2013-04-06T14:59:00Z", "Australia/Lord_Howe", "2013-04-07T01:59:00+11:00"),
    ("2013-04-06T15:00:00Z", "Australia/Lord_Howe", "2013-04-07T01:30:00+10:30"),
    ("2013-06-30T23:00:00Z", "Asia/Kathmandu", "2013-07-01T04:45:00+05:45"),
    ("2013-01-01T00:00:00.250Z", "Asia/Kathmandu", "2013-01-01T05:45:00.250+05:45"),
    ("2013-01-01", "Asia/Kathmandu", "2013-01-01T05:45:00+05:45"),
    ("2013-12-31T23:30:00+00:00", "UTC", "2013-12-31T23:30:00+00:00")
  ]

  @Test func inTimeZoneGivesTheLocalTimeAndOffsetAcrossTransitions() throws {
    let t = CellColumn("t", .string, Self.zoned.map { .string($0.0) })
    let zone = CellColumn("zone", .string, Self.zoned.map { .string($0.1) })
    let cells = try evaluateRows("inTimeZone(t, zone)", [t, zone])
    for (row, (instant, name, expected)) in Self.zoned.enumerated() {
      #expect(cells[row] == .string(expected), "inTimeZone(\(instant), \(name))")
    }
    // The local weekday of a late-evening flight differs from the UTC one.
    #expect(try evaluateOne("weekday(inTimeZone(\"2013-01-07T03:00:00Z\", \"America/New_York\"))") == .integer(7))
    // A date alone, as the only text of its column (nothing follows it in the column's bytes).
    #expect(try evaluateOne("inTimeZone(\"2013-01-01\", \"Europe/London\")") == .string("2013-01-01T00:00:00+00:00"))
    #expect(
      try evaluateOne("inTimeZone(\"2013-01-01T05:17\", \"Asia/Kathmandu\")") == .string("2013-01-01T11:02:00+05:45"))
  }

  @Test func inTimeZoneOfAnUnknownZoneFailsNamingItAndTheRow() throws {
    let t = CellColumn("t", .string, [.string("2013-01-01T00:00:00Z"), .string("2013-01-01T00:00:00Z")])
    let zone = CellColumn("tz", .string, [.string("Europe/Paris"), .string("Mars/Olympus_Mons")])
    do {
      _ = try evaluateRows("inTimeZone(t, tz)", [t, zone])
      Issue.record("an unknown zone must fail")
    } catch let error as FormulaError {
      #expect(error.message.contains("'inTimeZone' of column 'tz', row 2"), "\(error.message)")
      #expect(error.message.contains("unknown time zone \"Mars/Olympus_Mons\""), "\(error.message)")
    }
    #expect(try evaluateOne("inTimeZone(null, \"Europe/Paris\")") == .null)
    #expect(rowFormulaError("inTimeZone(\"2013-01-01\", 5)")?.message.contains("time zone name") == true)
  }

  @Test func theNewFunctionsAreListedInTheHelp() {
    let help = FormulaHelp.text
    for name in ["like", "format", "weekdayName", "monthName", "inTimeZone"] {
      #expect(help.contains("\n  \(name) "), "\(name) missing from flow help formulas")
    }
  }

  /// Every function of the one table is in Reference.md's list (as a backticked call or word).
  @Test func referenceListsEveryFunctionOfTheTable() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let reference = try String(contentsOf: root.appendingPathComponent("Documentation/Reference.md"), encoding: .utf8)
    let functions = reference.components(separatedBy: "**Functions.**").dropFirst().first ?? ""
    for entry in FormulaBuiltin.table where entry.name != "in" {
      let listed = ["`\(entry.name)(", "`\(entry.name) ", " \(entry.name) ", " \(entry.name)`", " \(entry.name)("]
        .contains { functions.contains($0) }
      #expect(listed, "Reference.md does not list '\(entry.name)'")
    }
  }
}
