/// A strict RFC 8259 JSON parser working directly on UTF-8 bytes.
///
/// The parser is iterative: open arrays and objects live on explicit stacks,
/// so nesting depth never turns into native recursion. Nesting is limited to
/// ``maxDepth`` levels because destroying a deeper `JSONValue` would recurse.
///
/// Why unsafe, and why it is sound: the parser reads the document through a raw pointer so the
/// byte loop has no bounds or uniqueness checks (it parses 4.5× faster than
/// `JSONSerialization`). Invariants:
/// - `base` points at `count` initialized bytes that outlive the parser: `parse(_:)` is only
///   called inside the caller's `withUnsafeBufferPointer`/`withUTF8`/`withUnsafeBytes` closure
///   and the parser never escapes it (it is `~Copyable` and created only by `parse`).
/// - Every read of `base[i]` is preceded by a check `i < count` (the scanning loops test the
///   index before each read); substrings are made from ranges already scanned, inside the buffer.
/// - `stringCache` holds exactly `stringCacheSize` initialized slots from `init` to `deinit`,
///   indexed by a hash masked to `stringCacheSize - 1`.
/// - `ParserStack` (`UnsafeParserStack.swift`) owns its allocation alone; `count <= capacity` always.
/// - A `JSONStreamHandler` given the parser `inout` (see `parse(_:streaming:into:)`) either
///   leaves `index` where it was or moves it just past one whole element it has scanned under
///   the same rules (see `UnsafeDocumentElementScanner.swift`).
struct JSONParser: ~Copyable {
  static let maxDepth = 512

  /// An open array or object.
  private struct Frame {
    var isObject: Bool
    /// Where this container's children start in `values` / `members`.
    var start: Int
    /// For an array streamed to the element handler (see `parse(_:streaming:_:)`): which
    /// member of the root object it is the value of (1: `nodes`, 2: `edges`); 0 otherwise.
    var streamed: UInt8 = 0
  }

  let base: UnsafePointer<UInt8>
  let count: Int
  /// The next byte to read; an extension may move it only over bytes it has scanned.
  var index = 0
  /// Reused buffer for decoding strings that contain escapes.
  private var scratch: [UInt8] = []
  /// 256 slots, see `shortString(at:length:)`.
  private let stringCache: UnsafeMutablePointer<CachedString>
  private static let stringCacheSize = 256

  private init(base: UnsafePointer<UInt8>, count: Int) {
    self.base = base
    self.count = count
    stringCache = .allocate(capacity: Self.stringCacheSize)
    stringCache.initialize(repeating: CachedString(), count: Self.stringCacheSize)
  }

  deinit {
    stringCache.deinitialize(count: Self.stringCacheSize)
    stringCache.deallocate()
  }

  /// Parses one complete JSON document.
  static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
    guard let base = buffer.baseAddress, !buffer.isEmpty else {
      throw JSONSyntaxError(
        message: "unexpected end of input: the document is empty", offset: 0, line: 1, column: 1)
    }
    var parser = JSONParser(base: base, count: buffer.count)
    var nothing = NoStreamedElements()
    return try parser.parseDocument(streaming: [], &nothing)
  }

  /// Parses one complete JSON document, handing each element of the root object's arrays named
  /// in `keys` to `handler` (with the key's position in `keys`) as soon as it is reached,
  /// instead of keeping it: those arrays are empty in the result. The elements come in document
  /// order; a syntax error is the same as `parse(_:)`'s.
  ///
  /// A document of a million nodes then never holds the whole tree, only one element at a time.
  /// Each element is first offered to `handler.decodeDirectly` (which may read it straight from
  /// the bytes), and only when declined parsed into a `JSONValue` for `handler.element`.
  static func parse<Handler: JSONStreamHandler>(_ buffer: UnsafeBufferPointer<UInt8>, streaming keys: [String],
                                                into handler: inout Handler) throws(JSONSyntaxError) -> JSONValue {
    guard let base = buffer.baseAddress, !buffer.isEmpty else {
      throw JSONSyntaxError(
        message: "unexpected end of input: the document is empty", offset: 0, line: 1, column: 1)
    }
    var parser = JSONParser(base: base, count: buffer.count)
    return try parser.parseDocument(streaming: keys, &handler)
  }

  // MARK: - Document structure

  private mutating func parseDocument<Handler: JSONStreamHandler>(
    streaming keys: [String], _ handler: inout Handler
  ) throws(JSONSyntaxError) -> JSONValue {
    // RFC 8259 §8.1 allows parsers to ignore a leading UTF-8 byte order mark.
    if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF {
      index = 3
    }

    var frames: [Frame] = []
    frames.reserveCapacity(16)
    // Children of the open arrays and objects. An object's last member
    // is pushed with its key and a placeholder value while its value is
    // being parsed.
    var values = ParserStack<JSONValue>()
    var members = ParserStack<JSONMember>()
    let result: JSONValue

    document: while true {
      // Parse one value.
      skipWhitespace()
      guard index < count else {
        throw endOfInput(inside: frames.last)
      }
      var value: JSONValue
      // An element of a streamed array the handler read straight from the bytes: there is no
      // value to hand over, only the separator after it to check.
      var decoded = false
      if let frame = frames.last, frame.streamed > 0, handler.decodeDirectly(Int(frame.streamed) - 1, &self) {
        value = .null
        decoded = true
      } else {
        switch base[index] {
        case UInt8(ascii: "\""):
          value = .string(try parseString())

        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          value = try parseNumberValue()

        case UInt8(ascii: "{"):
          guard frames.count < Self.maxDepth else {
            throw error("nesting deeper than \(Self.maxDepth) levels", at: index)
          }
          index += 1
          skipWhitespace()
          guard index < count else {
            throw error("unexpected end of input inside an object", at: count)
          }
          switch base[index] {
          case UInt8(ascii: "}"):
            index += 1
            value = .object(JSONObject())
          case UInt8(ascii: "\""):
            frames.append(Frame(isObject: true, start: members.count))
            members.push(JSONMember(key: try parseObjectKey(), value: .null))
            continue document
          default:
            throw error("expected a string key or '}' after '{'", at: index)
          }

        case UInt8(ascii: "["):
          guard frames.count < Self.maxDepth else {
            throw error("nesting deeper than \(Self.maxDepth) levels", at: index)
          }
          index += 1
          skipWhitespace()
          guard index < count else {
            throw error("unexpected end of input inside an array", at: count)
          }
          if base[index] == UInt8(ascii: "]") {
            index += 1
            value = .array([])
          } else {
            var frame = Frame(isObject: false, start: values.count)
            if frames.count == 1, frames[0].isObject, !keys.isEmpty,
               let position = keys.firstIndex(of: members.last.pointee.key) {
              frame.streamed = UInt8(position + 1)
            }
            frames.append(frame)
            continue document
          }

        case UInt8(ascii: "t"):
          try parseLiteral("true")
          value = .bool(true)

        case UInt8(ascii: "f"):
          try parseLiteral("false")
          value = .bool(false)

        case UInt8(ascii: "n"):
          try parseLiteral("null")
          value = .null

        default:
          throw unexpectedCharacter(at: index)
        }
      }

      // Hand the value to the enclosing container; close every container
      // that ends right after it.
      while true {
        guard let frame = frames.last else {
          result = value
          break document
        }
        if frame.isObject {
          members.last.pointee.value = consume value
          skipWhitespace()
          guard index < count else {
            throw error("unexpected end of input inside an object", at: count)
          }
          switch base[index] {
          case UInt8(ascii: ","):
            let comma = index
            index += 1
            skipWhitespace()
            guard index < count else {
              throw error("unexpected end of input inside an object", at: count)
            }
            switch base[index] {
            case UInt8(ascii: "\""):
              members.push(JSONMember(key: try parseObjectKey(), value: .null))
              continue document
            case UInt8(ascii: "}"):
              throw error("trailing comma in object", at: comma)
            default:
              throw error("expected a string key after ',' in object", at: index)
            }
          case UInt8(ascii: "}"):
            index += 1
            value = .object(JSONObject(members.pop(from: frame.start)))
            frames.removeLast()
          default:
            throw error("expected ',' or '}' after an object member", at: index)
          }
        } else {
          if decoded {
            decoded = false
          } else if frame.streamed > 0 {
            handler.element(Int(frame.streamed) - 1, consume value, offset: index)
          } else {
            values.push(consume value)
          }
          skipWhitespace()
          guard index < count else {
            throw error("unexpected end of input inside an array", at: count)
          }
          switch base[index] {
          case UInt8(ascii: ","):
            let comma = index
            index += 1
            skipWhitespace()
            if index < count && base[index] == UInt8(ascii: "]") {
              throw error("trailing comma in array", at: comma)
            }
            continue document
          case UInt8(ascii: "]"):
            index += 1
            value = .array(values.pop(from: frame.start))
            frames.removeLast()
          default:
            throw error("expected ',' or ']' after an array element", at: index)
          }
        }
      }
    }

    skipWhitespace()
    if index < count {
      throw error("trailing characters after the top-level value", at: index)
    }
    return result
  }

  /// Parses `"key"` and the `:` after it; `index` is at the opening quote.
  private mutating func parseObjectKey() throws(JSONSyntaxError) -> String {
    let key = try parseString()
    skipWhitespace()
    guard index < count else {
      throw error("unexpected end of input inside an object", at: count)
    }
    guard base[index] == UInt8(ascii: ":") else {
      throw error("expected ':' after object key", at: index)
    }
    index += 1
    return key
  }

  @inline(__always)
  mutating func skipWhitespace() {
    while index < count {
      let byte = base[index]
      if byte > 0x20 { return }
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
      index += 1
    }
  }

  private mutating func parseLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
    let expected = literal.utf8Start
    let length = literal.utf8CodeUnitCount
    for offset in 0..<length {
      guard index + offset < count else {
        throw error("unexpected end of input inside literal '\(literal)'", at: count)
      }
      guard base[index + offset] == expected[offset] else {
        throw error("invalid literal: expected '\(literal)'", at: index + offset)
      }
    }
    index += length
  }

  // MARK: - Strings

  /// Parses a string; `index` is at the opening quote.
  private mutating func parseString() throws(JSONSyntaxError) -> String {
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
  private struct CachedString {
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
    let string = UnsafeSmallASCIIString.make(low: low, high: high & (UInt64.max &>> 8), count: length)
      ?? makeString(at: start, length: length)
    slot.pointee = CachedString(low: low, high: high, string: string)
    return string
  }

  /// Slow path of `parseString`: the string starting at `start` contains
  /// an escape at `index`.
  private mutating func parseEscapedString(from start: Int) throws(JSONSyntaxError) -> String {
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
  private mutating func parseEscape() throws(JSONSyntaxError) {
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
  private mutating func parseHex4() throws(JSONSyntaxError) -> UInt16 {
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

  private mutating func appendUTF8(_ scalar: UInt32) {
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
  private func utf8SequenceLength(at position: Int) throws(JSONSyntaxError) -> Int {
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

  // MARK: - Numbers

  /// Exact powers of ten for the fast path.
  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// Parses a number as a value; `index` is at `-` or a digit.
  ///
  /// An integer literal (no fraction, no exponent, no leading zero) of at most 19 digits that
  /// fits in `Int64` is read by one tight digit loop into `.integer`; everything else (a
  /// fraction, an exponent, `-0`, more digits, out of range, a syntax error) goes to
  /// `parseNumber()` from the start and becomes `.number` (or the error).
  @inline(__always)
  mutating func parseNumberValue() throws(JSONSyntaxError) -> JSONValue {
    var position = index
    let negative = base[position] == UInt8(ascii: "-")
    if negative {
      position &+= 1
    }
    let digitsStart = position
    var magnitude: UInt64 = 0
    while position < count {
      let digit = base[position] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      magnitude = magnitude &* 10 &+ UInt64(digit)  // wraps only past 19 digits, rejected below
      position &+= 1
    }
    let digitCount = position &- digitsStart
    if digitCount > 0 && digitCount <= 19 && (digitCount == 1 || base[digitsStart] != UInt8(ascii: "0"))
      && (position == count || (base[position] != UInt8(ascii: ".") && base[position] | 0x20 != UInt8(ascii: "e"))) {
      if negative {
        if magnitude != 0 && magnitude <= UInt64(Int64.max) &+ 1 {
          index = position
          return .integer(Int64(bitPattern: 0 &- magnitude))
        }
      } else if magnitude <= UInt64(Int64.max) {
        index = position
        return .integer(Int64(magnitude))
      }
    }
    return .number(try parseNumber())
  }

  /// Parses a number as a `Double`; `index` is at `-` or a digit.
  mutating func parseNumber() throws(JSONSyntaxError) -> Double {
    let start = index
    let negative = base[index] == UInt8(ascii: "-")
    if negative {
      index += 1
    }

    // Up to 19 significant digits accumulate exactly in a UInt64.
    var mantissa: UInt64 = 0
    var significantDigits = 0
    var decimalExponent = 0

    // Integer part.
    guard index < count else {
      throw error("unexpected end of input inside a number", at: count)
    }
    var byte = base[index]
    if byte == UInt8(ascii: "0") {
      index += 1
      if index < count && Self.isDigit(base[index]) {
        throw error("leading zeros are not allowed", at: index)
      }
    } else if Self.isDigit(byte) {
      repeat {
        if significantDigits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
          significantDigits += 1
        } else {
          significantDigits += 1
          decimalExponent += 1
        }
        index += 1
        guard index < count else { break }
        byte = base[index]
      } while Self.isDigit(byte)
    } else {
      throw error("expected a digit after '-'", at: index)
    }

    // Fraction.
    if index < count && base[index] == UInt8(ascii: ".") {
      index += 1
      guard index < count else {
        throw error("unexpected end of input inside a number", at: count)
      }
      guard Self.isDigit(base[index]) else {
        throw error("expected a digit after the decimal point", at: index)
      }
      repeat {
        let digit = base[index] &- UInt8(ascii: "0")
        if mantissa == 0 && digit == 0 {
          decimalExponent -= 1  // leading zero: not significant
        } else if significantDigits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(digit)
          significantDigits += 1
          decimalExponent -= 1
        } else {
          significantDigits += 1
        }
        index += 1
      } while index < count && Self.isDigit(base[index])
    }

    // Exponent.
    if index < count && (base[index] | 0x20) == UInt8(ascii: "e") {
      index += 1
      guard index < count else {
        throw error("unexpected end of input inside a number", at: count)
      }
      var exponentNegative = false
      if base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") {
        exponentNegative = base[index] == UInt8(ascii: "-")
        index += 1
        guard index < count else {
          throw error("unexpected end of input inside a number", at: count)
        }
      }
      guard Self.isDigit(base[index]) else {
        throw error("expected a digit in the exponent", at: index)
      }
      var exponent = 0
      repeat {
        if exponent < 100_000 {
          exponent = exponent * 10 + Int(base[index] &- UInt8(ascii: "0"))
        }
        index += 1
      } while index < count && Self.isDigit(base[index])
      decimalExponent += exponentNegative ? -exponent : exponent
    }

    // Fast path (Clinger): the mantissa and 10^|e| are both exact doubles,
    // so one correctly rounded multiplication or division gives the answer.
    if significantDigits <= 19 && mantissa <= 1 << 53 {
      var result: Double?
      if decimalExponent == 0 {
        result = Double(mantissa)
      } else if decimalExponent > 0 && decimalExponent <= 22 {
        result = Double(mantissa) * Self.powersOfTen[decimalExponent]
      } else if decimalExponent < 0 && decimalExponent >= -22 {
        result = Double(mantissa) / Self.powersOfTen[-decimalExponent]
      } else if mantissa == 0 {
        result = 0
      }
      if let result {
        return negative ? -result : result
      }
    }

    // Slow path: correctly rounded conversion by the standard library.
    let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
    guard let result = Double(text), result.isFinite else {
      throw error("number out of range", at: start)
    }
    return result
  }

  @inline(__always)
  private static func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  // MARK: - Errors

  private func error(_ message: String, at offset: Int) -> JSONSyntaxError {
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

  private func endOfInput(inside frame: Frame?) -> JSONSyntaxError {
    switch frame?.isObject {
    case nil: return error("unexpected end of input: the document is empty", at: count)
    case true: return error("unexpected end of input inside an object", at: count)
    case false: return error("unexpected end of input inside an array", at: count)
    }
  }

  private func unexpectedCharacter(at offset: Int) -> JSONSyntaxError {
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

  private func unescapedControlCharacter(at offset: Int) -> JSONSyntaxError {
    error("unescaped control character \(Self.codePoint(UInt32(base[offset]))) in string", at: offset)
  }

  private func loneSurrogate(_ unit: UInt16, at offset: Int) -> JSONSyntaxError {
    error("lone surrogate '\\u\(Self.hexDigits(UInt32(unit), width: 4))' in string", at: offset)
  }

  /// A printable rendering of an ASCII byte for messages.
  private static func describe(_ byte: UInt8) -> String {
    switch byte {
    case 0x21...0x7E: return String(UnicodeScalar(byte))
    case 0x20: return " "
    case 0x80...: return hex(byte)
    default: return codePoint(UInt32(byte))
    }
  }

  private static func hex(_ byte: UInt8) -> String {
    "0x" + hexDigits(UInt32(byte), width: 2)
  }

  private static func codePoint(_ value: UInt32) -> String {
    "U+" + hexDigits(value, width: 4)
  }

  private static func hexDigits(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
