/// Strings: plain, cached, escaped and UTF-8 checked of `JSONParser` (`UnsafeJSONParser.swift`).
///
/// Unsafe for the same reason and under the same invariants as the parser itself (see the
/// header of `UnsafeJSONParser.swift`): every read of `base[i]` follows a check `i < count`,
/// and strings and numbers are made only from ranges already scanned inside the buffer.
extension JSONParser {
  /// Parses a string; `index` is at the opening quote.
  mutating func parseString() throws(JSONSyntaxError) -> String {
    index += 1
    let start = index
    // Fast path: no escapes, so the string is a slice of the input.
    while true {
      skipPlainBytes()
      guard index < count else { break }
      let byte = base[index]
      if byte == UInt8(ascii: "\"") {
        let length = index - start
        index += 1
        return length < 16 ? shortString(at: start, length: length) : makeString(at: start, length: length)
      } else if byte == UInt8(ascii: "\\") {
        return try parseEscapedString(from: start)
      } else if byte < 0x20 {
        throw unescapedControlCharacter(at: index)
      } else if byte < 0x80 {
        index += 1
      } else {
        index += try utf8SequenceLength(at: index)
      }
    }
    throw error("unexpected end of input inside a string", at: count)
  }

  /// Advances `index` eight bytes at a time over string bytes that need no
  /// attention: not '"', not '\\', not a control character, ASCII.
  @inline(__always)
  mutating func skipPlainBytes() {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    while index &+ 8 <= count {
      let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
      let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
      let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
      // Per byte: zero after the XOR (a quote or backslash), below 0x20, or
      // 0x80 and up. The lowest flagged byte is always a real match.
      let special =
        ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        | ((word &- ones &* 0x20) & ~word) | word
      let flagged = special & highBits
      if flagged != 0 {
        index &+= flagged.trailingZeroBitCount &>> 3
        return
      }
      index &+= 8
    }
  }

  func makeString(at start: Int, length: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: base + start, count: length), as: UTF8.self)
  }

  /// One slot of the short-string cache: the string's bytes packed into
  /// two words (with `length + 1` in the top byte, so 0 means empty).
  struct CachedString {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var string = ""
  }

  /// A well-formed string of fewer than 16 bytes without escapes.
  ///
  /// Keys and short values repeat a lot ("id", "position", "left", ...), so
  /// they go through a small direct-mapped cache instead of being created
  /// (and validated) again each time.
  mutating func shortString(at start: Int, length: Int) -> String {
    var (low, high) = UnsafeSmallASCIIString.words(base + start, count: length, end: base + count)
    high |= UInt64(length &+ 1) &<< 56
    let hash = (low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F)
    let slot = stringCache + Int(truncatingIfNeeded: hash &>> (64 - 8))
    if slot.pointee.low == low && slot.pointee.high == high {
      return slot.pointee.string
    }
    let string =
      UnsafeSmallASCIIString.make(low: low, high: high & (UInt64.max &>> 8), count: length)
      ?? makeString(at: start, length: length)
    slot.pointee = CachedString(low: low, high: high, string: string)
    return string
  }

  /// Slow path of `parseString`: the string starting at `start` contains
  /// an escape at `index`.
  mutating func parseEscapedString(from start: Int) throws(JSONSyntaxError) -> String {
    scratch.removeAll(keepingCapacity: true)
    var runStart = start
    while true {
      skipPlainBytes()
      guard index < count else { break }
      let byte = base[index]
      if byte == UInt8(ascii: "\"") {
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
        index += 1
        return String(decoding: scratch, as: UTF8.self)
      } else if byte == UInt8(ascii: "\\") {
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
        try parseEscape()
        runStart = index
      } else if byte < 0x20 {
        throw unescapedControlCharacter(at: index)
      } else if byte < 0x80 {
        index += 1
      } else {
        index += try utf8SequenceLength(at: index)
      }
    }
    throw error("unexpected end of input inside a string", at: count)
  }

  /// Decodes one escape sequence into `scratch`; `index` is at the backslash.
  mutating func parseEscape() throws(JSONSyntaxError) {
    let escapeStart = index
    guard index + 1 < count else {
      throw error("unexpected end of input inside a string", at: count)
    }
    let byte = base[index + 1]
    index += 2
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
      scratch.append(byte)
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "u"):
      let unit = try parseHex4()
      var scalarValue = UInt32(unit)
      switch unit {
      case 0xD800...0xDBFF:
        // A high surrogate must be followed by an escaped low surrogate.
        guard index + 1 < count,
          base[index] == UInt8(ascii: "\\"), base[index + 1] == UInt8(ascii: "u")
        else {
          throw loneSurrogate(unit, at: escapeStart)
        }
        let lowStart = index
        index += 2
        let low = try parseHex4()
        guard (0xDC00...0xDFFF).contains(low) else {
          index = lowStart
          throw loneSurrogate(unit, at: escapeStart)
        }
        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      case 0xDC00...0xDFFF:
        throw loneSurrogate(unit, at: escapeStart)
      default:
        break
      }
      appendUTF8(scalarValue)
    default:
      throw error("invalid escape '\\\(Self.describe(byte))' in string", at: escapeStart)
    }
  }

  /// Reads four hex digits at `index`.
  mutating func parseHex4() throws(JSONSyntaxError) -> UInt16 {
    var result: UInt16 = 0
    for _ in 0..<4 {
      guard index < count else {
        throw error("unexpected end of input inside a string", at: count)
      }
      let byte = base[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
      default:
        throw error("invalid \\u escape: expected 4 hex digits", at: index)
      }
      result = result << 4 | UInt16(digit)
      index += 1
    }
    return result
  }

  mutating func appendUTF8(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      scratch.append(UInt8(scalar))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | scalar >> 6))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | scalar >> 12))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | scalar >> 18))
      scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  /// The length of the well-formed UTF-8 sequence whose lead byte (≥ 0x80)
  /// is at `position`; throws pointing at the first ill-formed byte.
  func utf8SequenceLength(at position: Int) throws(JSONSyntaxError) -> Int {
    let lead = base[position]
    var continuationCount: Int
    var secondLow: UInt8 = 0x80
    var secondHigh: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: continuationCount = 1
    case 0xE0: continuationCount = 2; secondLow = 0xA0  // no overlong forms
    case 0xE1...0xEC, 0xEE...0xEF: continuationCount = 2
    case 0xED: continuationCount = 2; secondHigh = 0x9F  // no UTF-16 surrogates
    case 0xF0: continuationCount = 3; secondLow = 0x90  // no overlong forms
    case 0xF1...0xF3: continuationCount = 3
    case 0xF4: continuationCount = 3; secondHigh = 0x8F  // nothing above U+10FFFF
    default:
      throw error("invalid UTF-8 byte \(Self.hex(lead))", at: position)
    }
    for offset in 1...continuationCount {
      guard position + offset < count else {
        throw error("unexpected end of input inside a UTF-8 sequence", at: count)
      }
      let byte = base[position + offset]
      let valid = offset == 1 ? (secondLow...secondHigh).contains(byte) : (0x80...0xBF).contains(byte)
      guard valid else {
        throw error("invalid UTF-8 byte \(Self.hex(byte))", at: position + offset)
      }
    }
    continuationCount += 1
    return continuationCount
  }
}
