import FlowRuntime

/// The string functions of row formulas over a column's UTF-8 bytes (`len`, `lower`, `upper`,
/// `trim`, `substr`, `contains`, `startsWith`, `endsWith`): one loop over the column's bytes per
/// call, never a `String` per row except where Unicode case mapping needs one (a non-ASCII
/// string in `lower`/`upper`). Positions count Unicode scalars, from 1 (SQL).
extension RowVector {
  /// A string function of ``FormulaTextFunction`` applied row by row; a null argument gives
  /// null.
  ///
  /// - Parameter memory: the run's limits when `concat` and `replace` must check the memory
  ///   limit as they build (`RunLimits.checkMemory(adding:for:)`), else `nil`.
  /// - Throws: `fail`'s error for `number` of a text that is not a number, or for a string
  ///   kernel that would pass the memory limit.
  static func text(
    _ function: FormulaTextFunction, _ operands: [RowVector], count: Int, memory: RunLimits? = nil,
    fail: (String) -> FormulaError
  ) throws(FormulaError) -> RowVector {
    switch function {
    case .concat: return try concatenated(operands, count: count, memory: memory, fail: fail)
    case .string: return operands[0].texts(count: count)
    default: break
    }
    if operands.contains(where: \.isAllNull) { return .null }
    var valid: [Bool]? = nil
    for operand in operands { valid = both(valid, operand.valid) }
    if function == .format {
      guard case .string(let specs, _) = operands[1] else { return .null }
      return try formatted(operands[0], specs, valid: valid, count: count, memory: memory, fail: fail)
    }
    guard case .string(let strings, _) = operands[0] else { return .null }
    switch function {
    case .len: return .integer(scalarCounts(strings), valid: valid)
    case .lower, .upper: return .string(caseMapped(strings, upper: function == .upper), valid: valid)
    case .trim: return .string(trimmed(strings), valid: valid)
    case .substr:
      let (substrings, defined) = substrings(strings, start: operands[1], count: operands.count > 2 ? operands[2] : nil)
      return .string(substrings, valid: both(valid, defined))
    case .contains, .startsWith, .endsWith:
      guard case .string(let patterns, _) = operands[1] else { return .null }
      return .bool(search(function, strings, patterns), valid: valid)
    case .like:
      guard case .string(let patterns, _) = operands[1] else { return .null }
      return .bool(like(strings, patterns), valid: valid)
    case .replace:
      guard case .string(let from, _) = operands[1], case .string(let to, _) = operands[2] else { return .null }
      return .string(try replaced(strings, from, to, memory: memory, fail: fail), valid: valid)
    case .number:
      return .number(try numbers(strings, valid: valid, fail: fail), valid: valid)
    case .concat, .string, .format:
      preconditionFailure("Internal inconsistency: handled above")
    }
  }

  /// Whether `byte` starts a Unicode scalar (is not a UTF-8 continuation byte).
  @inline(__always)
  static func startsScalar(_ byte: UInt8) -> Bool { byte & 0xC0 != 0x80 }

  /// `len`: the Unicode scalars of each string.
  private static func scalarCounts(_ strings: StringColumn) -> [Int64] {
    let (bytes, offsets) = strings.flatLayout
    var result = [Int64](repeating: 0, count: strings.count)
    for row in result.indices {
      var scalars = 0
      for index in offsets[row]..<offsets[row + 1] where startsScalar(bytes[index]) { scalars += 1 }
      result[row] = Int64(scalars)
    }
    return result
  }

  /// `lower` / `upper`: ASCII bytes mapped in place; a string with other scalars is mapped by
  /// Swift's Unicode case mapping.
  private static func caseMapped(_ strings: StringColumn, upper: Bool) -> StringColumn {
    let (bytes, offsets) = strings.flatLayout
    let (low, high): (UInt8, UInt8) = upper ? (0x61, 0x7A) : (0x41, 0x5A)
    var mapped = bytes
    var ascii = true
    for index in mapped.indices {
      let byte = mapped[index]
      if byte >= low && byte <= high { mapped[index] = byte ^ 0x20 }
      if byte >= 0x80 { ascii = false }
    }
    if ascii { return StringColumn(validUTF8: mapped, offsets: offsets) }
    var result = StringColumn()
    result.reserveCapacity(strings: strings.count, bytes: bytes.count)
    for row in 0..<strings.count {
      let range = offsets[row]..<offsets[row + 1]
      if bytes[range].allSatisfy({ $0 < 0x80 }) {
        result.append(utf8: mapped[range])
      } else {
        let text = String(decoding: bytes[range], as: UTF8.self)
        result.append(upper ? text.uppercased() : text.lowercased())
      }
    }
    return result
  }

  /// ASCII whitespace: space, tab, line feed, vertical tab, form feed, carriage return.
  @inline(__always)
  private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

  /// `trim`: without leading and trailing ASCII whitespace.
  private static func trimmed(_ strings: StringColumn) -> StringColumn {
    let (bytes, offsets) = strings.flatLayout
    var result = StringColumn()
    result.reserveCapacity(strings: strings.count, bytes: bytes.count)
    for row in 0..<strings.count {
      var start = offsets[row], end = offsets[row + 1]
      while start < end && isSpace(bytes[start]) { start += 1 }
      while end > start && isSpace(bytes[end - 1]) { end -= 1 }
      result.append(utf8: bytes[start..<end])
    }
    return result
  }

  /// A whole-number argument per row (truncated toward zero, saturated to ±2^53), and where
  /// it is not a number (NaN).
  private static func positions(_ vector: RowVector) -> (values: [Int], defined: [Bool]?) {
    switch vector {
    case .integer(let values, _):
      let limit: Int64 = 1 << 53
      return (values.map { Int(max(-limit, min(limit, $0))) }, nil)
    case .number(let values, _):
      var defined: [Bool]? = nil
      let limit = 0x1p53
      let result = values.enumerated().map { row, value -> Int in
        if value.isNaN {
          if defined == nil { defined = [Bool](repeating: true, count: values.count) }
          defined?[row] = false
          return 0
        }
        return Int(max(-limit, min(limit, value)).rounded(.towardZero))
      }
      return (result, defined)
    default:
      return ([], nil)
    }
  }

  /// `substr(s, start[, count])`: the scalars at positions `start … start + count - 1` (all
  /// from `start` without a count) that exist, as SQL's `SUBSTRING` (a start before 1 still
  /// counts the positions before 1; a negative count gives ""). A NaN position gives null.
  private static func substrings(
    _ strings: StringColumn, start: RowVector, count: RowVector?
  ) -> (StringColumn, [Bool]?) {
    let (bytes, offsets) = strings.flatLayout
    let (starts, startDefined) = positions(start)
    let (counts, countDefined) = count.map(positions) ?? ([], nil)
    let ascii = bytes.allSatisfy { $0 < 0x80 }
    var result = StringColumn()
    result.reserveCapacity(strings: strings.count, bytes: 0)
    for row in 0..<strings.count {
      let first = starts[row]
      let from = max(first, 1)
      // The last position wanted, inclusive (saturating: positions are at most 2^53 apart).
      let last = counts.isEmpty ? Int.max : (counts[row] < 0 ? Int.min : first + counts[row] - 1)
      let begin = offsets[row], end = offsets[row + 1]
      guard last >= from else {
        result.appendEmpty()
        continue
      }
      if ascii {
        let length = end - begin
        let lower = begin + min(from - 1, length), upper = last == .max ? end : begin + min(last, length)
        result.append(utf8: bytes[lower..<max(lower, upper)])
        continue
      }
      // Walk the scalars: `position` is the 1-based position of the scalar starting at `index`.
      var index = begin, position = 0, lower = end, upper = end
      while index < end {
        if startsScalar(bytes[index]) {
          position += 1
          if position == from { lower = index }
          if last != .max && position == last + 1 {
            upper = index
            break
          }
        }
        index += 1
      }
      result.append(utf8: bytes[lower..<max(lower, upper)])
    }
    return (result, both(startDefined, countDefined))
  }

  /// `contains` / `startsWith` / `endsWith` of each string and its row's pattern, on bytes.
  private static func search(_ function: FormulaTextFunction, _ strings: StringColumn, _ patterns: StringColumn)
    -> [Bool]
  {
    let (bytes, offsets) = strings.flatLayout
    let (patternBytes, patternOffsets) = patterns.flatLayout
    var result = [Bool](repeating: false, count: strings.count)
    for row in result.indices {
      let begin = offsets[row], end = offsets[row + 1]
      let pattern = patternOffsets[row], length = patternOffsets[row + 1] - pattern
      guard length <= end - begin else { continue }
      func matches(at start: Int) -> Bool {
        for index in 0..<length where bytes[start + index] != patternBytes[pattern + index] { return false }
        return true
      }
      switch function {
      case .startsWith: result[row] = matches(at: begin)
      case .endsWith: result[row] = matches(at: end - length)
      default:
        var start = begin
        while start + length <= end && !matches(at: start) { start += 1 }
        result[row] = start + length <= end
      }
    }
    return result
  }
}
