import FlowRuntime

/// A row where a date function has no answer: a text that is not an ISO-8601 date, numbers
/// that make no date, or a date moved past year 9999. `RowProgram` turns it into the node's
/// message, naming the column, the row (from 1) and the text.
struct DateFailure: Error, Sendable {
  /// The 0-based row of the evaluation.
  let row: Int
  /// The argument at fault (its column is named when it reads one directly), or nil.
  let argument: Int?
  /// What is wrong, quoting what was written: `"2013-13-01" is not an ISO-8601 date`.
  let reason: String

  /// The message of the failing node.
  func error(_ function: DateFunction, sources: [String?]) -> FormulaError {
    var message = "'\(function.name)'"
    if let argument, argument < sources.count, let column = sources[argument] { message += " of column '\(column)'" }
    message += ", row \(row + 1): \(reason)"
    return FormulaError(message: message)
  }

  /// `"text" is not an ISO-8601 date`, the text cut to 60 characters.
  static func notADate(_ bytes: [UInt8], _ start: Int, _ end: Int, row: Int, argument: Int) -> DateFailure {
    let text = String(decoding: bytes[start..<end], as: UTF8.self)
    let shown = text.count > 60 ? text.prefix(60) + "…" : Substring(text)
    return DateFailure(row: row, argument: argument, reason: "\"\(shown)\" is not an ISO-8601 date")
  }
}

extension ISODate {
  /// The date of row `row` of a text column's flat layout (`StringColumn.flatLayout`), read in
  /// place.
  ///
  /// - Throws: `DateFailure.notADate` naming the row, for a text that is not a date.
  @inline(__always)
  static func parse(_ bytes: [UInt8], _ offsets: [Int], row: Int) throws(DateFailure) -> ISODate {
    let start = offsets[row], end = offsets[row + 1]
    guard let date = parse(bytes, from: start, to: end) else {
      throw .notADate(bytes, start, end, row: row, argument: 0)
    }
    return date
  }
}

/// The date functions column at a time: texts are read in place from the column's UTF-8 bytes
/// (``ISODate``), a null argument row gives a null row, and results are built without a
/// `String` per row.
extension RowVector {
  /// `function(operands…)` over `count` rows.
  ///
  /// - Throws: a ``DateFailure`` for the first valid row that has no answer.
  /// - Complexity: O(rows + bytes of the texts).
  static func date(_ function: DateFunction, _ operands: [RowVector], count: Int) throws(DateFailure) -> RowVector {
    if operands.contains(where: \.isAllNull) { return .null }
    var valid: [Bool]? = nil
    for operand in operands { valid = both(valid, operand.valid) }
    switch function {
    case .date: return try makeDates(operands, valid: valid, count: count)
    case .addDays: return try addDays(operands[0], operands[1], valid: valid, count: count)
    case .days: return try days(operands[0], operands[1], valid: valid, count: count)
    case .weekdayName, .monthName: return try names(function, operands[0], valid: valid, count: count)
    case .inTimeZone: return try inTimeZone(operands[0], operands[1], valid: valid, count: count)
    default: break
    }
    guard case .string(let texts, _) = operands[0] else { return .null }
    switch function {
    case .year: return try parts(texts, valid: valid, count: count) { $0.year }
    case .month: return try parts(texts, valid: valid, count: count) { $0.month }
    case .day: return try parts(texts, valid: valid, count: count) { $0.day }
    case .hour: return try parts(texts, valid: valid, count: count) { $0.hour }
    case .minute: return try parts(texts, valid: valid, count: count) { $0.minute }
    case .second: return try parts(texts, valid: valid, count: count) { $0.second }
    default: return try parts(texts, valid: valid, count: count) { $0.weekday }
    }
  }

  /// `part` of each text (one loop per part, so the part is read without a switch per row).
  @inline(__always)
  private static func parts(
    _ texts: StringColumn, valid: [Bool]?, count: Int, part: (ISODate) -> Int
  ) throws(DateFailure) -> RowVector {
    let (bytes, offsets) = texts.flatLayout
    var result = [Int64](repeating: 0, count: count)
    for row in 0..<count where valid?[row] ?? true {
      let date = try ISODate.parse(bytes, offsets, row: row)
      result[row] = Int64(part(date))
    }
    return .integer(result, valid: valid)
  }

  /// `days(a, b)`: whole days from `a` to `b`, by calendar date in UTC.
  private static func days(_ a: RowVector, _ b: RowVector, valid: [Bool]?, count: Int) throws(DateFailure) -> RowVector
  {
    guard case .string(let left, _) = a, case .string(let right, _) = b else { return .null }
    let (leftBytes, leftOffsets) = left.flatLayout, (rightBytes, rightOffsets) = right.flatLayout
    var result = [Int64](repeating: 0, count: count)
    for row in 0..<count where valid?[row] ?? true {
      let (leftStart, leftEnd) = (leftOffsets[row], leftOffsets[row + 1])
      guard let from = ISODate.parse(leftBytes, from: leftStart, to: leftEnd) else {
        throw .notADate(leftBytes, leftStart, leftEnd, row: row, argument: 0)
      }
      let (rightStart, rightEnd) = (rightOffsets[row], rightOffsets[row + 1])
      guard let to = ISODate.parse(rightBytes, from: rightStart, to: rightEnd) else {
        throw .notADate(rightBytes, rightStart, rightEnd, row: row, argument: 1)
      }
      result[row] = Int64(to.utcDay - from.utcDay)
    }
    return .integer(result, valid: valid)
  }

  /// `addDays(d, n)`: the date moved by `n` days; what follows the date (time, fraction,
  /// offset) is copied as written.
  private static func addDays(_ d: RowVector, _ n: RowVector, valid: [Bool]?, count: Int) throws(DateFailure)
    -> RowVector
  {
    guard case .string(let texts, _) = d else { return .null }
    let (bytes, offsets) = texts.flatLayout
    var result = StringColumn()
    result.reserveCapacity(strings: count, bytes: bytes.count)
    var scratch: [UInt8] = []
    scratch.reserveCapacity(64)
    for row in 0..<count {
      guard valid?[row] ?? true else {
        result.appendEmpty()
        continue
      }
      let date = try ISODate.parse(bytes, offsets, row: row)
      let start = offsets[row], end = offsets[row + 1]
      // Years 0000–9999 span fewer than 3,652,500 days: a larger move leaves them anyway.
      guard let shift = whole(n, row), shift.magnitude < 3_652_500 else {
        throw DateFailure(row: row, argument: 1, reason: "\(describe(n, row)) is not a whole number of days in range")
      }
      let moved = ISODate.civil(fromDay: ISODate.dayNumber(date.year, date.month, date.day) + shift)
      guard (0...9999).contains(moved.year) else {
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        throw DateFailure(
          row: row, argument: 0, reason: "\"\(text)\" moved by \(shift) days leaves the years 0000–9999")
      }
      scratch.removeAll(keepingCapacity: true)
      ISODate.appendDate(moved.year, moved.month, moved.day, to: &scratch)
      scratch.append(contentsOf: bytes[(start + 10)..<end])
      result.append(utf8: scratch)
    }
    return .string(result, valid: valid)
  }

  /// `date(y, m, d)`: the text `YYYY-MM-DD`.
  private static func makeDates(_ parts: [RowVector], valid: [Bool]?, count: Int) throws(DateFailure) -> RowVector {
    var result = StringColumn()
    result.reserveCapacity(strings: count, bytes: count * 10)
    var scratch: [UInt8] = []
    scratch.reserveCapacity(10)
    for row in 0..<count {
      guard valid?[row] ?? true else {
        result.appendEmpty()
        continue
      }
      guard let year = whole(parts[0], row), let month = whole(parts[1], row), let day = whole(parts[2], row),
        ISODate.isValid(year, month, day)
      else {
        let written = parts.map { describe($0, row) }.joined(separator: ", ")
        throw DateFailure(row: row, argument: nil, reason: "date(\(written)) is not a date of the years 0000–9999")
      }
      scratch.removeAll(keepingCapacity: true)
      ISODate.appendDate(year, month, day, to: &scratch)
      result.append(utf8: scratch)
    }
    return .string(result, valid: valid)
  }

  /// The value of a numeric vector at `row` when it is a whole number (within ±2^53), else nil.
  @inline(__always)
  private static func whole(_ vector: RowVector, _ row: Int) -> Int? {
    switch vector {
    case .integer(let values, _): return Int(values[row])
    case .number(let values, _):
      let x = values[row]
      guard x.rounded(.towardZero) == x, x.magnitude <= 9_007_199_254_740_992 else { return nil }
      return Int(x)
    default: return nil
    }
  }

  /// A numeric value at `row` as a message writes it.
  private static func describe(_ vector: RowVector, _ row: Int) -> String {
    switch vector {
    case .integer(let values, _): "\(values[row])"
    case .number(let values, _): "\(values[row])"
    default: "null"
    }
  }
}
