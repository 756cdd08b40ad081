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
  struct Frame {
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
  var scratch: [UInt8] = []
  /// 256 slots, see `shortString(at:length:)`.
  let stringCache: UnsafeMutablePointer<CachedString>
  static let stringCacheSize = 256

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
  static func parse<Handler: JSONStreamHandler>(
    _ buffer: UnsafeBufferPointer<UInt8>, streaming keys: [String],
    into handler: inout Handler
  ) throws(JSONSyntaxError) -> JSONValue {
    guard let base = buffer.baseAddress, !buffer.isEmpty else {
      throw JSONSyntaxError(
        message: "unexpected end of input: the document is empty", offset: 0, line: 1, column: 1)
    }
    var parser = JSONParser(base: base, count: buffer.count)
    return try parser.parseDocument(streaming: keys, &handler)
  }

  // MARK: - Document structure

  mutating func parseDocument<Handler: JSONStreamHandler>(
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
              let position = keys.firstIndex(of: members.last.pointee.key)
            {
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
  mutating func parseObjectKey() throws(JSONSyntaxError) -> String {
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

  mutating func parseLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
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
}
