import FlowRuntime
import Foundation

/// The date functions that give text: `weekdayName(d)`, `monthName(d)` (English, of the parts
/// as written) and `inTimeZone(t, zone)`, an instant's local time in a zone of the system's
/// time zone database (Foundation's `TimeZone`, IANA names; no package).
extension RowVector {
  /// The English weekday names, Monday first (ISO order).
  static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
  /// The English month names, January first.
  static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December"
  ]

  /// `weekdayName(d)` or `monthName(d)` of each text.
  ///
  /// - Throws: a ``DateFailure`` for the first valid row that is not a date.
  static func names(_ function: DateFunction, _ d: RowVector, valid: [Bool]?, count: Int) throws(DateFailure)
    -> RowVector
  {
    guard case .string(let texts, _) = d else { return .null }
    let (bytes, offsets) = texts.flatLayout
    var result = StringColumn()
    result.reserveCapacity(strings: count, bytes: count * 8)
    for row in 0..<count {
      guard valid?[row] ?? true else {
        result.appendEmpty()
        continue
      }
      let date = try ISODate.parse(bytes, offsets, row: row)
      result.append(function == .monthName ? monthNames[date.month - 1] : weekdayNames[date.weekday - 1])
    }
    return .string(result, valid: valid)
  }

  /// `inTimeZone(t, zone)`: the instant `t` (a text without an offset counts as UTC) as the
  /// local date-time of `zone`, `YYYY-MM-DDTHH:MM:SS`, the fraction as written, and the zone's
  /// offset at that instant, `±hh:mm` (`±hh:mm:ss` for an offset with seconds, as some zones
  /// had before 1900).
  ///
  /// - Throws: a ``DateFailure`` naming the row for a text that is not a date, a zone name the
  ///   database lacks, or a local time outside the years 0000–9999.
  /// - Complexity: O(rows + bytes); one database look-up per distinct instant and zone in a
  ///   bounded cache.
  static func inTimeZone(_ t: RowVector, _ zones: RowVector, valid: [Bool]?, count: Int) throws(DateFailure)
    -> RowVector
  {
    guard case .string(let texts, _) = t, case .string(let names, _) = zones else { return .null }
    let (bytes, offsets) = texts.flatLayout
    var result = StringColumn()
    result.reserveCapacity(strings: count, bytes: count * 25)
    var zone: (name: String, zone: TimeZone)?
    // Offsets already asked of the zone, by instant (cleared when the zone changes or it fills).
    var known: [Int: Int] = [:]
    var scratch: [UInt8] = []
    scratch.reserveCapacity(40)
    for row in 0..<count {
      guard valid?[row] ?? true else {
        result.appendEmpty()
        continue
      }
      let date = try ISODate.parse(bytes, offsets, row: row)
      let start = offsets[row], end = offsets[row + 1]
      let name = names[row]
      if zone?.name != name {
        guard let found = TimeZone(identifier: name) else {
          let shown = name.count > 60 ? name.prefix(60) + "…" : Substring(name)
          throw DateFailure(
            row: row, argument: 1,
            reason: "unknown time zone \"\(shown)\" (IANA names such as \"Europe/Paris\")")
        }
        zone = (name, found)
        known.removeAll(keepingCapacity: true)
      }
      let instant =
        (ISODate.dayNumber(date.year, date.month, date.day) * 86_400 + date.hour * 3_600 + date.minute * 60
          + date.second) - date.offsetMinutes * 60
      let offset: Int
      if let cached = known[instant] {
        offset = cached
      } else {
        offset = zone?.zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))) ?? 0
        if known.count >= 1 << 16 { known.removeAll(keepingCapacity: true) }
        known[instant] = offset
      }
      let local = instant + offset
      let day = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
      let seconds = local - day * 86_400
      let civil = ISODate.civil(fromDay: day)
      guard (0...9999).contains(civil.year) else {
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        throw DateFailure(row: row, argument: 0, reason: "\"\(text)\" in \(name) leaves the years 0000–9999")
      }
      scratch.removeAll(keepingCapacity: true)
      ISODate.appendDate(civil.year, civil.month, civil.day, to: &scratch)
      scratch.append(UInt8(ascii: "T"))
      appendPair(seconds / 3_600, to: &scratch)
      scratch.append(UInt8(ascii: ":"))
      appendPair(seconds / 60 % 60, to: &scratch)
      scratch.append(UInt8(ascii: ":"))
      appendPair(seconds % 60, to: &scratch)
      scratch.append(contentsOf: bytes[fraction(bytes, start, end)])
      scratch.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
      let magnitude = abs(offset)
      appendPair(magnitude / 3_600, to: &scratch)
      scratch.append(UInt8(ascii: ":"))
      appendPair(magnitude / 60 % 60, to: &scratch)
      if magnitude % 60 != 0 {
        scratch.append(UInt8(ascii: ":"))
        appendPair(magnitude % 60, to: &scratch)
      }
      result.append(utf8: scratch)
    }
    return .string(result, valid: valid)
  }

  /// The fraction of the seconds as written (`.5` of `2013-01-01T05:17:09.5Z`), or an empty
  /// range; `bytes[start..<end]` is a valid ISO-8601 text.
  private static func fraction(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Range<Int> {
    let dot = start + 19
    guard dot < end, bytes[dot] == UInt8(ascii: ".") else { return end..<end }
    var index = dot + 1
    while index < end, ISODate.isDigit(bytes[index]) { index += 1 }
    return dot..<index
  }

  /// Two decimal digits of `value` (0–99).
  @inline(__always)
  private static func appendPair(_ value: Int, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }
}
