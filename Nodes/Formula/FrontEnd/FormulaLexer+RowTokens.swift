/// The tokens only row formulas have: `"strings"` (escapes `\"` and `\\`), `` `column names` ``
/// and the comparisons `< <= == != >= >`.
extension FormulaLexer {
  /// Scans a row-formula token starting at `position`, or returns nil if the byte there starts
  /// none (the caller then reports an unexpected character).
  mutating func scanRowToken() throws(FormulaError) -> FormulaToken? {
    let start = position
    let byte = bytes[start]
    let next: UInt8? = start + 1 < bytes.count ? bytes[start + 1] : nil
    let kind: FormulaToken.Kind
    var length = 1
    switch byte {
    case UInt8(ascii: "\""):
      return try scanString()
    case UInt8(ascii: "`"):
      return try scanQuotedName()
    case UInt8(ascii: "<"):
      if next == UInt8(ascii: "=") { (kind, length) = (.lessOrEqual, 2) } else { kind = .less }
    case UInt8(ascii: ">"):
      if next == UInt8(ascii: "=") { (kind, length) = (.greaterOrEqual, 2) } else { kind = .greater }
    case UInt8(ascii: "="):
      if next == UInt8(ascii: ">") || next == UInt8(ascii: "<") {
        let flipped = next == UInt8(ascii: ">") ? ">=" : "<="
        throw error("unexpected '=\(flipped.prefix(1))' (write '\(flipped)')", atOffset: start)
      }
      guard next == UInt8(ascii: "=") else {
        throw error("unexpected '=' (write '==' to compare)", atOffset: start)
      }
      (kind, length) = (.equal, 2)
    case UInt8(ascii: "!"):
      guard next == UInt8(ascii: "=") else {
        throw error("unexpected '!' (write 'not' to negate, '!=' to compare)", atOffset: start)
      }
      (kind, length) = (.notEqual, 2)
    default:
      return nil
    }
    position += length
    return FormulaToken(kind: kind, start: start, end: position)
  }

  /// Scans `"…"`; inside, `\"` is a quote and `\\` a backslash; any other escape is an error.
  private mutating func scanString() throws(FormulaError) -> FormulaToken {
    let start = position
    position += 1
    var decoded: [UInt8] = []
    var chunkStart = position
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        decoded += bytes[chunkStart..<position]
        position += 1
        return FormulaToken(kind: .string(String(decoding: decoded, as: UTF8.self)), start: start, end: position)
      }
      if byte == UInt8(ascii: "\\") {
        decoded += bytes[chunkStart..<position]
        guard position + 1 < bytes.count else { break }
        let escaped = bytes[position + 1]
        guard escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") else {
          let shown = escaped < 0x80 ? String(UnicodeScalar(escaped)) : "…"
          throw error("unknown escape '\\\(shown)' in a string (only \\\" and \\\\)", atOffset: position)
        }
        decoded.append(escaped)
        position += 2
        chunkStart = position
        continue
      }
      position += 1
    }
    throw error("unterminated string", atOffset: start)
  }

  /// Scans `` `column name` `` (any characters but a backtick, at least one).
  private mutating func scanQuotedName() throws(FormulaError) -> FormulaToken {
    let start = position
    position += 1
    while position < bytes.count, bytes[position] != UInt8(ascii: "`") {
      position += 1
    }
    guard position < bytes.count else {
      throw error("unterminated `column name`", atOffset: start)
    }
    let name = String(decoding: bytes[(start + 1)..<position], as: UTF8.self)
    position += 1
    guard !name.isEmpty else { throw error("empty `column name`", atOffset: start) }
    return FormulaToken(kind: .quotedName(name), start: start, end: position)
  }
}
