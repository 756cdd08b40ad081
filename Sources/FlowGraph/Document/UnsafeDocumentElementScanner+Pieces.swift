import Foundation

/// The pieces the element scanner (`UnsafeDocumentElementScanner.swift`) reads an element with:
/// keys, plain strings, numbers, pairs, literals and flat objects. Each returns `nil` (or
/// `false`) to decline, and may then have moved `index`: the element scan restores it.
///
/// Why unsafe, and why it is sound: as for the element scanner — `JSONParser` methods reading
/// its `base` pointer, every read of `base[i]` after a check `i < count` (a piece that reads
/// `base[index]` first is only called where the caller has checked `index < count`: after
/// `key`, `scanKey`, `openObject` or `endMember` returned success), strings made from ranges
/// already scanned inside the buffer.
extension JSONParser {
  /// A flat object: strings, numbers, `true`, `false`, `null` as member values.
  mutating func scanFlatObject() -> JSONObject? {
    guard base[index] == UInt8(ascii: "{") else { return nil }
    index += 1
    skipWhitespace()
    guard index < count else { return nil }
    if base[index] == UInt8(ascii: "}") {
      index += 1
      return JSONObject()
    }
    guard base[index] == UInt8(ascii: "\"") else { return nil }
    var members: [JSONMember] = []
    repeat {
      guard let key = scanKey() else { return nil }
      let name =
        key.length < 16 ? shortString(at: key.start, length: key.length) : makeString(at: key.start, length: key.length)
      let value: JSONValue
      switch base[index] {
      case UInt8(ascii: "\""):
        guard let text = scanString(repeated: true) else { return nil }
        value = .string(text)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard let number = try? parseNumberValue() else { return nil }
        value = number
      case UInt8(ascii: "t"):
        guard scanLiteral("true") else { return nil }
        value = .bool(true)
      case UInt8(ascii: "f"):
        guard scanLiteral("false") else { return nil }
        value = .bool(false)
      case UInt8(ascii: "n"):
        guard scanLiteral("null") else { return nil }
        value = .null
      default:
        return nil
      }
      members.append(JSONMember(key: name, value: value))
      guard let more = endMember() else { return nil }
      if !more { break }
    } while true
    return JSONObject(members)
  }

  /// `{` and the first key's opening quote: an empty object is declined.
  mutating func openObject() -> Bool {
    guard index < count, base[index] == UInt8(ascii: "{") else { return false }
    index += 1
    skipWhitespace()
    return index < count && base[index] == UInt8(ascii: "\"")
  }

  /// A key, its `:` and the whitespace after it; `index` is then at the value, inside the buffer.
  mutating func scanKey() -> (start: Int, length: Int)? {
    guard let key = scanPlainString() else { return nil }
    skipWhitespace()
    guard index < count, base[index] == UInt8(ascii: ":") else { return nil }
    index += 1
    skipWhitespace()
    return index < count ? key : nil
  }

  /// After a member's value: `true` past a `,` (at the next key's quote), `false` past the `}`.
  @inline(__always)
  mutating func endMember() -> Bool? {
    skipWhitespace()
    guard index < count else { return nil }
    switch base[index] {
    case UInt8(ascii: ","):
      index += 1
      skipWhitespace()
      return index < count && base[index] == UInt8(ascii: "\"") ? true : nil
    case UInt8(ascii: "}"):
      index += 1
      return false
    default:
      return nil
    }
  }

  /// The bytes between the quotes of a string of printable ASCII without escapes; `index` is
  /// then past the closing quote.
  @inline(__always)
  mutating func scanPlainString() -> (start: Int, length: Int)? {
    guard base[index] == UInt8(ascii: "\"") else { return nil }
    index += 1
    let start = index
    while true {
      skipPlainBytes()
      guard index < count else { return nil }
      let byte = base[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return (start, index - 1 - start)
      }
      guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
      index += 1
    }
  }

  /// A plain string value; `repeated` ones (kinds, handle ids) go through the short-string cache
  /// as the generic parser's do, unique ones (ids) are made directly.
  mutating func scanString(repeated: Bool) -> String? {
    guard let span = scanPlainString() else { return nil }
    if span.length < 16 {
      if repeated { return shortString(at: span.start, length: span.length) }
      // The bytes are printable ASCII (`scanPlainString`), inside the buffer.
      if UnsafeSmallASCIIString.isAvailable {
        return UnsafeSmallASCIIString.make(base + span.start, count: span.length, end: base + count)
      }
    }
    return makeString(at: span.start, length: span.length)
  }

  /// A plain string, or `null` (then `.some(nil)`).
  mutating func scanOptionalString() -> String?? {
    if base[index] == UInt8(ascii: "n") { return scanLiteral("null") ? .some(nil) : nil }
    guard let text = scanString(repeated: true) else { return nil }
    return .some(text)
  }

  /// `[number, number]`.
  mutating func scanPair() -> (Double, Double)? {
    guard base[index] == UInt8(ascii: "[") else { return nil }
    index += 1
    guard let x = scanNumber() else { return nil }
    skipWhitespace()
    guard index < count, base[index] == UInt8(ascii: ",") else { return nil }
    index += 1
    guard let y = scanNumber() else { return nil }
    skipWhitespace()
    guard index < count, base[index] == UInt8(ascii: "]") else { return nil }
    index += 1
    return (x, y)
  }

  /// A number after optional whitespace.
  mutating func scanNumber() -> Double? {
    skipWhitespace()
    guard index < count else { return nil }
    let byte = base[index]
    guard byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 else { return nil }
    return try? parseNumber()
  }

  /// A number after optional whitespace, integers exact (see `parseNumberValue()`).
  mutating func scanNumberValue() -> JSONValue? {
    skipWhitespace()
    guard index < count else { return nil }
    let byte = base[index]
    guard byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 else { return nil }
    return try? parseNumberValue()
  }

  /// `true` or `false`.
  mutating func scanBool() -> Bool? {
    if base[index] == UInt8(ascii: "t") { return scanLiteral("true") ? true : nil }
    return scanLiteral("false") ? false : nil
  }

  /// A node's `phase` when it is `{"normal": {}}` (as `jsonString()` writes every node's);
  /// anything else (a draft, another shape) is declined.
  mutating func scanNormalPhase() -> Bool {
    guard openObject(), key("normal"), base[index] == UInt8(ascii: "{") else { return false }
    index += 1
    skipWhitespace()
    guard index < count, base[index] == UInt8(ascii: "}") else { return false }
    index += 1
    return endMember() == false
  }

  /// `literal` at `index`.
  mutating func scanLiteral(_ literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard index <= count &- length else { return false }
    for offset in 0..<length where base[index + offset] != literal.utf8Start[offset] { return false }
    index += length
    return true
  }

  /// Whether the key at `index` (at its opening quote) is `literal`, written plainly, with its
  /// `:` after it; if so, moves past them and the whitespace after (to the value, inside the
  /// buffer), otherwise leaves `index` where it was.
  ///
  /// The literals are printable ASCII without `"` or `\`, so a match is the whole key, and at
  /// most one of the distinct literals tried at one place matches.
  @inline(__always)
  mutating func key(_ literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    // The quote at `index`, the literal, the closing quote, then at least one byte.
    guard index < count &- length &- 2 else { return false }
    let name = base + index + 1
    for offset in 0..<length where name[offset] != literal.utf8Start[offset] { return false }
    guard name[length] == UInt8(ascii: "\"") else { return false }
    let start = index
    index += length + 2
    if base[index] != UInt8(ascii: ":") {
      skipWhitespace()
      guard index < count, base[index] == UInt8(ascii: ":") else {
        index = start
        return false
      }
    }
    index += 1
    skipWhitespace()
    guard index < count else {
      index = start
      return false
    }
    return true
  }
}
