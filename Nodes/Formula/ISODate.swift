/// An ISO-8601 date or date-time as written in a text, read byte by byte (no Foundation, no
/// allocation): `2013-01-01`, `2013-01-01T05:17`, `2013-01-01T05:17:00`, with optional
/// fractional seconds (`.5`, `.123456`) and an optional zone, `Z` or `±hh:mm`, after a time.
/// A space may stand for the `T` (as RFC 3339 allows, and as exports such as nycflights13's
/// `time_hour` write it).
///
/// The year has four digits (0000–9999; the proleptic Gregorian calendar); the month, the day
/// (leap years included), the hour (00–23), the minute and the second (00–59) must exist.
/// The parts are kept as written: no conversion to UTC (``utcDay`` does that for `days`).
///
/// Invariant: a value made by ``parse(_:from:to:)`` is a valid calendar date and time.
struct ISODate: Sendable, Hashable {
  var year: Int
  var month: Int
  var day: Int
  /// 0 when the text has no time.
  var hour = 0
  var minute = 0
  /// The whole seconds (the fraction is not kept).
  var second = 0
  /// The zone's offset from UTC in minutes (`-05:00` is -300); 0 for `Z` and for no zone.
  var offsetMinutes = 0

  /// Reads `bytes[start..<end]`; nil when it is not such a text (nothing may follow it).
  ///
  /// Fixed positions are read with few branches: a pair of digits that is not one reads as
  /// 100, which every range check refuses.
  ///
  /// - Complexity: O(`end - start`), without allocating.
  @inline(__always)
  static func parse(_ bytes: [UInt8], from start: Int, to end: Int) -> ISODate? {
    guard end - start >= 10 else { return nil }
    let century = pair(bytes, start), low = pair(bytes, start + 2), year = century * 100 + low
    let month = pair(bytes, start + 5), day = pair(bytes, start + 8)
    guard max(century, low) < 100, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
      month >= 1, month <= 12, day >= 1, day <= daysInMonth(year, month)
    else { return nil }
    var value = ISODate(year: year, month: month, day: day)
    var index = start + 10
    if index == end { return value }
    // The time: `T` (or a space), hh:mm, then optionally :ss and a fraction.
    guard end - index >= 6 else { return nil }
    let separator = bytes[index]
    let hour = pair(bytes, index + 1), minute = pair(bytes, index + 4)
    guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: " "), bytes[index + 3] == UInt8(ascii: ":"),
      hour < 24, minute < 60
    else { return nil }
    value.hour = hour
    value.minute = minute
    index += 6
    if index < end, bytes[index] == UInt8(ascii: ":") {
      guard end - index >= 3 else { return nil }
      let second = pair(bytes, index + 1)
      guard second < 60 else { return nil }
      value.second = second
      index += 3
      if index < end, bytes[index] == UInt8(ascii: ".") {
        index += 1
        let fraction = index
        while index < end, isDigit(bytes[index]) { index += 1 }
        guard index > fraction else { return nil }
      }
    }
    if index == end { return value }
    // The zone.
    if bytes[index] == UInt8(ascii: "Z") { return index + 1 == end ? value : nil }
    let sign = bytes[index]
    guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), end - index == 6 else { return nil }
    let hours = pair(bytes, index + 1), minutes = pair(bytes, index + 4)
    guard bytes[index + 3] == UInt8(ascii: ":"), hours < 24, minutes < 60 else { return nil }
    value.offsetMinutes = (hours * 60 + minutes) * (sign == UInt8(ascii: "-") ? -1 : 1)
    return value
  }

  /// The number of the calendar date in UTC (days since 1970-01-01): the date as written,
  /// moved by the zone's offset when the time crosses midnight in UTC.
  var utcDay: Int {
    let minutes = hour * 60 + minute - offsetMinutes
    return ISODate.dayNumber(year, month, day) + (minutes < 0 ? -1 : (minutes >= 1440 ? 1 : 0))
  }

  /// ISO weekday of the date as written: 1 Monday … 7 Sunday.
  var weekday: Int { ISODate.weekday(ofDay: ISODate.dayNumber(year, month, day)) }

  @inline(__always)
  static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  /// The number 00–99 of the two ASCII digits at `index`, or 100 when either is not a digit.
  @inline(__always)
  static func pair(_ bytes: [UInt8], _ index: Int) -> Int {
    let tens = bytes[index] &- UInt8(ascii: "0"), ones = bytes[index + 1] &- UInt8(ascii: "0")
    return max(tens, ones) < 10 ? Int(tens) * 10 + Int(ones) : 100
  }
}

// Calendar arithmetic on day numbers (days since 1970-01-01, proleptic Gregorian), after
// Howard Hinnant's `days_from_civil` / `civil_from_days`.
extension ISODate {
  static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  /// The number of days of `month` (1–12) in `year`.
  @inline(__always)
  static func daysInMonth(_ year: Int, _ month: Int) -> Int {
    switch month {
    case 2: isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Whether `year-month-day` is a date of the calendar with a four-digit year.
  static func isValid(_ year: Int, _ month: Int, _ day: Int) -> Bool {
    (0...9999).contains(year) && (1...12).contains(month) && day >= 1 && day <= daysInMonth(year, month)
  }

  /// The day number of a valid date.
  @inline(__always)
  static func dayNumber(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day number.
  @inline(__always)
  static func civil(fromDay number: Int) -> (year: Int, month: Int, day: Int) {
    let z = number + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shifted = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shifted + 2) / 5 + 1
    let month = shifted < 10 ? shifted + 3 : shifted - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// ISO weekday of a day number: 1 Monday … 7 Sunday (1970-01-01 was a Thursday).
  @inline(__always)
  static func weekday(ofDay number: Int) -> Int {
    let fromMonday = (number + 3) % 7
    return (fromMonday < 0 ? fromMonday + 7 : fromMonday) + 1
  }

  /// Appends `YYYY-MM-DD` (a four-digit year, 0–9999) to `bytes`.
  @inline(__always)
  static func appendDate(_ year: Int, _ month: Int, _ day: Int, to bytes: inout [UInt8]) {
    // Digits by constant divisors (multiplications), not a running divisor (divisions).
    let zero = UInt8(ascii: "0"), dash = UInt8(ascii: "-")
    bytes.append(zero + UInt8(truncatingIfNeeded: year / 1_000 % 10))
    bytes.append(zero + UInt8(truncatingIfNeeded: year / 100 % 10))
    bytes.append(zero + UInt8(truncatingIfNeeded: year / 10 % 10))
    bytes.append(zero + UInt8(truncatingIfNeeded: year % 10))
    bytes.append(dash)
    bytes.append(zero + UInt8(truncatingIfNeeded: month / 10 % 10))
    bytes.append(zero + UInt8(truncatingIfNeeded: month % 10))
    bytes.append(dash)
    bytes.append(zero + UInt8(truncatingIfNeeded: day / 10 % 10))
    bytes.append(zero + UInt8(truncatingIfNeeded: day % 10))
  }
}
