extension String {
  /// The string for text output and diagnostics: every character that could drive a terminal,
  /// break a line or reorder the text around it is written as a visible escape, so a document
  /// cannot send terminal escapes through its ids, kinds, labels or values.
  ///
  /// - `\n`, `\r`, `\t` become those two characters;
  /// - the other C0 controls (U+0000–U+001F), DEL (U+007F), the C1 controls (U+0080–U+009F),
  ///   the line and paragraph separators (U+2028, U+2029) and the bidirectional embeddings,
  ///   overrides and isolates (U+202A–U+202E, U+2066–U+2069) become `\u` and four uppercase
  ///   hex digits (`\u001B` for ESC) — also a valid escape inside a JSON string.
  ///
  /// Everything else, backslashes included, is kept. A string without such characters is
  /// returned as is, after one pass over its bytes.
  package var controlEscaped: String { escapingControls(keepingLineFeeds: false) }

  /// The string with the characters of `controlEscaped` escaped, except (if
  /// `keepingLineFeeds`) the line feeds that separate the lines of a whole output.
  package func escapingControls(keepingLineFeeds: Bool) -> String {
    let clean =
      utf8.withContiguousStorageIfAvailable { !Self.hasControls($0, keepingLineFeeds: keepingLineFeeds) }
      ?? !unicodeScalars.contains { $0.controlEscape != nil && !(keepingLineFeeds && $0 == "\n") }
    if clean { return self }
    var escaped = ""
    escaped.reserveCapacity(utf8.count + 16)
    for scalar in unicodeScalars {
      if let escape = scalar.controlEscape, !(keepingLineFeeds && scalar == "\n") {
        escaped += escape
      } else {
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// Whether the UTF-8 `bytes` hold a character `controlEscape` escapes.
  private static func hasControls(_ bytes: UnsafeBufferPointer<UInt8>, keepingLineFeeds: Bool) -> Bool {
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte < 0x20 {
        if !(keepingLineFeeds && byte == 0x0A) { return true }
      } else if byte == 0x7F {
        return true
      } else if byte == 0xC2, index + 1 < count, (0x80...0x9F).contains(bytes[index + 1]) {
        return true  // U+0080–U+009F
      } else if byte == 0xE2, index + 2 < count {
        let second = bytes[index + 1], third = bytes[index + 2]
        if second == 0x80 && (0xA8...0xAE).contains(third) { return true }  // U+2028–U+202E
        if second == 0x81 && (0xA6...0xA9).contains(third) { return true }  // U+2066–U+2069
      }
      index += 1
    }
    return false
  }
}

extension Unicode.Scalar {
  /// The visible escape `String.controlEscaped` writes for this scalar (`\n`, `\u001B` …), or
  /// `nil` if it is printed as is.
  package var controlEscape: String? {
    switch value {
    case 0x0A: return "\\n"
    case 0x0D: return "\\r"
    case 0x09: return "\\t"
    case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069:
      let hex = String(value, radix: 16, uppercase: true)
      return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    default: return nil
    }
  }
}
