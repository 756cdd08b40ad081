import Foundation
import FlowTestSupport
import Testing
@testable import FlowNodes

/// `days`, `addDays`, `weekday` and the parts against Foundation's Gregorian calendar in UTC
/// (the reference, used in the tests only) over random dates, times and offsets.
@Suite struct DateFunctionPropertyTests {
  /// A random date-time text with its parts, sometimes without a time, a fraction or a zone:
  /// years 1700–9800 (Foundation's Gregorian calendar is Julian before October 1582; moves of
  /// up to ±40,000 days stay in 0000–9999).
  private struct Sample {
    var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
    var offsetMinutes = 0
    var text = ""

    init(_ random: inout SeededRandom) {
      func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
      year = Int.random(in: 1700...9800, using: &random)  // room for addDays of ±40,000
      month = Int.random(in: 1...12, using: &random)
      let lengths = [
        31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
      ]
      day = Int.random(in: 1...lengths[month - 1], using: &random)
      text = "\(year)-\(two(month))-\(two(day))"
      guard Bool.random(using: &random) else { return }
      (hour, minute, second) = (
        Int.random(in: 0...23, using: &random), Int.random(in: 0...59, using: &random),
        Int.random(in: 0...59, using: &random)
      )
      text += "T\(two(hour)):\(two(minute)):\(two(second))"
      if Bool.random(using: &random) { text += ".\(Int.random(in: 0...999_999, using: &random))" }
      switch Int.random(in: 0...2, using: &random) {
      case 0: text += "Z"
      case 1:
        offsetMinutes = Int.random(in: -(14 * 60)...(14 * 60), using: &random)
        text += (offsetMinutes < 0 ? "-" : "+") + two(abs(offsetMinutes) / 60) + ":" + two(abs(offsetMinutes) % 60)
      default: break
      }
    }
  }

  private static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()

  /// The instant the sample's text stands for.
  private func instant(_ sample: Sample) throws -> Date {
    var parts = DateComponents(
      year: sample.year, month: sample.month, day: sample.day, hour: sample.hour,
      minute: sample.minute, second: sample.second)
    parts.timeZone = TimeZone(secondsFromGMT: sample.offsetMinutes * 60)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(parts.timeZone)
    return try #require(calendar.date(from: parts))
  }

  /// The written date as a UTC midnight (what `weekday` and `addDays` see).
  private func writtenDay(_ sample: Sample) throws -> Date {
    try #require(Self.calendar.date(from: DateComponents(year: sample.year, month: sample.month, day: sample.day)))
  }

  @Test(arguments: 0..<4)
  func dateFunctionsAgreeWithFoundationsCalendar(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed) &* 104_729 &+ 11)
    let samples = (0..<100).map { _ in Sample(&random) }
    let others = (0..<100).map { _ in Sample(&random) }
    let moves = (0..<100).map { _ in Int64.random(in: -40_000...40_000, using: &random) }
    let columns = [
      CellColumn("a", .string, samples.map { .string($0.text) }),
      CellColumn("b", .string, others.map { .string($0.text) }),
      CellColumn("n", .integer, moves.map { .integer($0) })
    ]
    let days = try evaluateRows("days(a, b)", columns)
    let weekdays = try evaluateRows("weekday(a)", columns)
    let moved = try evaluateRows("addDays(a, n)", columns)
    let parts = try ["year", "month", "day", "hour", "minute", "second"].map { try evaluateRows("\($0)(a)", columns) }
    for row in 0..<samples.count {
      let (a, b) = (samples[row], others[row])
      let context = Comment(rawValue: "\(a.text) \(b.text) \(moves[row])")
      // days: whole days between the UTC calendar dates of the two instants.
      let from = Self.calendar.startOfDay(for: try instant(a)), to = Self.calendar.startOfDay(for: try instant(b))
      let expectedDays = try #require(Self.calendar.dateComponents([.day], from: from, to: to).day)
      #expect(days[row] == .integer(Int64(expectedDays)), context)
      // weekday: Foundation numbers Sunday 1 … Saturday 7.
      let foundationWeekday = Self.calendar.component(.weekday, from: try writtenDay(a))
      #expect(weekdays[row] == .integer(Int64((foundationWeekday + 5) % 7 + 1)), context)
      // addDays: the written date moved, the rest of the text as written.
      let target = try #require(Self.calendar.date(byAdding: .day, value: Int(moves[row]), to: try writtenDay(a)))
      let components = Self.calendar.dateComponents([.year, .month, .day], from: target)
      let y = try #require(components.year), m = try #require(components.month), d = try #require(components.day)
      if (0...9999).contains(y) {
        let date =
          String(repeating: "0", count: 4 - String(y).count) + "\(y)-" + (m < 10 ? "0\(m)" : "\(m)")
          + "-" + (d < 10 ? "0\(d)" : "\(d)")
        #expect(moved[row] == .string(date + a.text.dropFirst(10)), context)
      }
      let expectedParts = [a.year, a.month, a.day, a.hour, a.minute, a.second]
      for (index, part) in expectedParts.enumerated() {
        #expect(parts[index][row] == .integer(Int64(part)), context)
      }
    }
  }

  @Test func civilDayNumbersRoundTripOverEveryFourHundredYears() {
    var expected = ISODate.dayNumber(1600, 1, 1)
    for year in 1600..<2000 {
      for month in 1...12 {
        for day in 1...ISODate.daysInMonth(year, month) {
          let civil = ISODate.civil(fromDay: expected)
          if ISODate.dayNumber(year, month, day) != expected || civil.year != year || civil.month != month
            || civil.day != day
          {
            Issue.record("\(year)-\(month)-\(day) → \(expected) → \(civil)")
            return
          }
          expected += 1
        }
      }
    }
    #expect(ISODate.dayNumber(2000, 1, 1) - ISODate.dayNumber(1600, 1, 1) == 146_097)
    #expect(ISODate.dayNumber(1970, 1, 1) == 0)
    let leapDay = ISODate.civil(fromDay: ISODate.dayNumber(0, 3, 1) - 1)
    #expect(leapDay.year == 0 && leapDay.month == 2 && leapDay.day == 29)
  }
}
