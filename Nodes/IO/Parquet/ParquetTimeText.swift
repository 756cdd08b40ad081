/// Dates, times and timestamps of Parquet columns as ISO-8601 text: `YYYY-MM-DD`,
/// `HH:MM:SS[.fff]`, `YYYY-MM-DDTHH:MM:SS[.fff][Z]` (the proleptic Gregorian calendar; a year
/// outside 0–9999 is written with its sign and all its digits).
enum ParquetTimeText {
  /// Appends the date `days` after 1970-01-01.
  static func appendDate(_ days: Int, to bytes: inout [UInt8]) {
    let date = ISODate.civil(fromDay: days)
    if (0...9_999).contains(date.year) { return ISODate.appendDate(date.year, date.month, date.day, to: &bytes) }
    if date.year < 0 { bytes.append(UInt8(ascii: "-")) }
    appendDigits(abs(date.year), width: 4, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(date.month, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(date.day, width: 2, to: &bytes)
  }

  /// Appends the time of day `value` units after midnight (`perSecond` units a second).
  static func appendTime(_ value: Int64, perSecond: Int64, to bytes: inout [UInt8]) {
    let (seconds, fraction) = split(value, perSecond)
    let ofDay = Int(seconds % 86_400 + 86_400) % 86_400
    appendClock(ofDay, to: &bytes)
    appendFraction(
      fraction, perSecond: perSecond, digits: perSecond == 1_000 ? 3 : perSecond == 1_000_000 ? 6 : 9, to: &bytes)
  }

  /// Appends the instant `value` units after the epoch with `digits` fraction digits (0, 3, 6
  /// or 9), and `Z` when `utc`.
  static func appendTimestamp(_ value: Int64, perSecond: Int64, digits: Int, utc: Bool, to bytes: inout [UInt8]) {
    let (seconds, fraction) = split(value, perSecond)
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    appendDate(Int(days), to: &bytes)
    bytes.append(UInt8(ascii: "T"))
    appendClock(Int(seconds - days * 86_400), to: &bytes)
    appendFraction(fraction, perSecond: perSecond, digits: digits, to: &bytes)
    if utc { bytes.append(UInt8(ascii: "Z")) }
  }

  /// Appends 16 bytes as a UUID (`8-4-4-4-12` lower-case hex digits).
  static func appendUUID(_ value: ArraySlice<UInt8>, to bytes: inout [UInt8]) {
    let hex = Array("0123456789abcdef".utf8)
    for (offset, byte) in value.enumerated() {
      if [4, 6, 8, 10].contains(offset) { bytes.append(UInt8(ascii: "-")) }
      bytes.append(hex[Int(byte >> 4)])
      bytes.append(hex[Int(byte & 15)])
    }
  }

  /// Whole seconds (rounded down) and the non-negative remainder in units.
  private static func split(_ value: Int64, _ perSecond: Int64) -> (seconds: Int64, fraction: Int64) {
    var seconds = value / perSecond
    var fraction = value % perSecond
    if fraction < 0 {
      seconds -= 1
      fraction += perSecond
    }
    return (seconds, fraction)
  }

  private static func appendClock(_ secondsOfDay: Int, to bytes: inout [UInt8]) {
    appendDigits(secondsOfDay / 3_600, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(secondsOfDay / 60 % 60, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(secondsOfDay % 60, width: 2, to: &bytes)
  }

  private static func appendFraction(_ fraction: Int64, perSecond: Int64, digits: Int, to bytes: inout [UInt8]) {
    guard digits > 0 else { return }
    bytes.append(UInt8(ascii: "."))
    var nanoseconds = Int(fraction * (1_000_000_000 / perSecond))
    for _ in 0..<(9 - digits) { nanoseconds /= 10 }
    appendDigits(nanoseconds, width: digits, to: &bytes)
  }

  /// Appends the non-negative `value` in at least `width` digits.
  private static func appendDigits(_ value: Int, width: Int, to bytes: inout [UInt8]) {
    // The largest power of ten not above `value` (no overflow: each step stays at most `value`),
    // then the digits from the most significant, with no array of its own.
    var divisor = 1, digits = 1
    while value / divisor >= 10 {
      divisor *= 10
      digits += 1
    }
    for _ in digits..<max(width, digits) { bytes.append(UInt8(ascii: "0")) }
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
      divisor /= 10
    }
  }
}
