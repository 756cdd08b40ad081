// Invariants: fields come from an `UnsafeCSVScanner` over the buffer they lie in, so a field's
// first byte (read only for a non-empty unquoted field) is in bounds; tokens are compared
// through the scanner's bounds-checked `field(_:equals:)`.

/// Which unquoted cells are null: most cells cannot be a null token, only those whose first
/// byte starts one (or empty ones).
struct CSVNullTest {
  let tokens: [[UInt8]]
  let longest: Int
  var startsToken = [Bool](repeating: false, count: 256)
  var emptyIsNull = false
  /// Whether no token is a plain number (`UnsafeDecimalParser.plain`, `plainInteger`: an
  /// optional `-`, digits and at most one `.`), so a cell that converts as one is not null and
  /// a numeric column may convert before it tests for null.
  let numbersFirst: Bool

  init(_ tokens: [[UInt8]]) {
    self.tokens = tokens
    longest = tokens.map(\.count).max() ?? -1
    numbersFirst = tokens.allSatisfy { token in
      token.isEmpty
        || token.contains { byte in
          !(byte >= 0x30 && byte <= 0x39) && byte != UInt8(ascii: "-") && byte != UInt8(ascii: ".")
        }
    }
    for token in tokens {
      if let first = token.first { startsToken[Int(first)] = true } else { emptyIsNull = true }
    }
  }

  @inline(__always)
  func isNull(_ field: CSVField, _ scanner: UnsafeCSVScanner) -> Bool {
    if field.quoted { return false }
    let length = field.end - field.start
    if length == 0 { return emptyIsNull }
    guard length <= longest && startsToken[Int(scanner.buffer[field.start])] else { return false }
    for token in tokens where scanner.field(field, equals: token) { return true }
    return false
  }
}
