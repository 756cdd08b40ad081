/// Syntax errors with line and column, naming the offending character of `JSONParser` (`UnsafeJSONParser.swift`).
///
/// Unsafe for the same reason and under the same invariants as the parser itself (see the
/// header of `UnsafeJSONParser.swift`): every read of `base[i]` follows a check `i < count`,
/// and strings and numbers are made only from ranges already scanned inside the buffer.
extension JSONParser {
  func error(_ message: String, at offset: Int) -> JSONSyntaxError {
    var line = 1
    var lineStart = 0
    var position = 0
    let end = min(offset, count)
    while position < end {
      if base[position] == 0x0A {
        line += 1
        lineStart = position + 1
      }
      position += 1
    }
    return JSONSyntaxError(message: message, offset: offset, line: line, column: offset - lineStart + 1)
  }

  func endOfInput(inside frame: Frame?) -> JSONSyntaxError {
    switch frame?.isObject {
    case nil: return error("unexpected end of input: the document is empty", at: count)
    case true: return error("unexpected end of input inside an object", at: count)
    case false: return error("unexpected end of input inside an array", at: count)
    }
  }

  func unexpectedCharacter(at offset: Int) -> JSONSyntaxError {
    let byte = base[offset]
    if byte < 0x20 || byte == 0x7F {
      return error("unexpected control character \(Self.codePoint(UInt32(byte)))", at: offset)
    }
    if byte < 0x80 {
      return error("unexpected character '\(Self.describe(byte))'", at: offset)
    }
    // Name the offending character when it is well-formed UTF-8 (e.g. a “smart quote”).
    guard let length = try? utf8SequenceLength(at: offset) else {
      return error("invalid UTF-8 byte \(Self.hex(byte))", at: offset)
    }
    let character = String(decoding: UnsafeBufferPointer(start: base + offset, count: length), as: UTF8.self)
    let scalar = character.unicodeScalars.first!.value
    return error("unexpected character '\(character)' (\(Self.codePoint(scalar)))", at: offset)
  }

  func unescapedControlCharacter(at offset: Int) -> JSONSyntaxError {
    error("unescaped control character \(Self.codePoint(UInt32(base[offset]))) in string", at: offset)
  }

  func loneSurrogate(_ unit: UInt16, at offset: Int) -> JSONSyntaxError {
    error("lone surrogate '\\u\(Self.hexDigits(UInt32(unit), width: 4))' in string", at: offset)
  }

  /// A printable rendering of an ASCII byte for messages.
  static func describe(_ byte: UInt8) -> String {
    switch byte {
    case 0x21...0x7E: return String(UnicodeScalar(byte))
    case 0x20: return " "
    case 0x80...: return hex(byte)
    default: return codePoint(UInt32(byte))
    }
  }

  static func hex(_ byte: UInt8) -> String {
    "0x" + hexDigits(UInt32(byte), width: 2)
  }

  static func codePoint(_ value: UInt32) -> String {
    "U+" + hexDigits(value, width: 4)
  }

  static func hexDigits(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
