/// Serializes `JSONValue`s to UTF-8 bytes.
///
/// Iterative: open containers live on an explicit stack, so deeply nested
/// values do not recurse. Output goes to a manually grown byte buffer.
///
/// Why unsafe, and why it is sound: appending to a raw buffer avoids `Array`'s uniqueness and
/// bounds checks per byte. Invariants: `buffer` holds `capacity` allocated bytes of which the
/// first `count` are initialized, `count <= capacity` after every append (each append grows
/// the buffer first when needed); the writer is `~Copyable`, so the buffer has one owner and is
/// deallocated once, in `deinit`; `withOutput` lends the bytes only for the closure's duration.
struct JSONWriter: ~Copyable {
  private let prettyPrinted: Bool
  private let sortedKeys: Bool
  private let distinguishingDoubles: Bool

  private var buffer: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private var count = 0

  /// An array or object whose children are being written.
  private struct Frame {
    var elements: [JSONValue]  // arrays
    var members: [JSONMember]  // objects
    var isObject: Bool
    var next = 0
  }

  init(options: JSONValue.WritingOptions) {
    prettyPrinted = options.contains(.prettyPrinted)
    sortedKeys = options.contains(.sortedKeys)
    distinguishingDoubles = options.contains(.distinguishingDoubles)
    capacity = 1024
    buffer = .allocate(capacity: capacity)
  }

  deinit {
    buffer.deallocate()
  }

  /// The bytes written so far.
  func withOutput<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    body(UnsafeBufferPointer(start: buffer, count: count))
  }

  mutating func write(_ root: JSONValue) {
    var stack: [Frame] = []
    var value = root
    writing: while true {
      switch value {
      case .null:
        append("null")
      case .bool(let bool):
        append(bool ? "true" : "false")
      case .number(let number):
        writeNumber(number)
      case .integer(let integer):
        writeInteger(integer)
      case .string(let string):
        writeString(string)
      case .array(let elements):
        if elements.isEmpty {
          append("[]")
        } else {
          append(UInt8(ascii: "["))
          stack.append(Frame(elements: elements, members: [], isObject: false))
        }
      case .object(let object):
        if object.isEmpty {
          append("{}")
        } else {
          append(UInt8(ascii: "{"))
          let members = sortedKeys ? Self.sorted(object.members) : object.members
          stack.append(Frame(elements: [], members: members, isObject: true))
        }
      }

      // Find the next value to write, closing finished containers.
      while !stack.isEmpty {
        let top = stack.count - 1
        let next = stack[top].next
        if stack[top].isObject {
          if next < stack[top].members.count {
            startChild(first: next == 0, depth: stack.count)
            stack[top].next = next + 1
            writeString(stack[top].members[next].key)
            if prettyPrinted {
              append(" : ")
            } else {
              append(UInt8(ascii: ":"))
            }
            value = stack[top].members[next].value
            continue writing
          }
        } else if next < stack[top].elements.count {
          startChild(first: next == 0, depth: stack.count)
          stack[top].next = next + 1
          value = stack[top].elements[next]
          continue writing
        }
        let isObject = stack[top].isObject
        stack.removeLast()
        newline(depth: stack.count)
        append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
      }
      break writing
    }
  }

  /// Stable sort by key, so duplicate keys keep their relative order
  /// (and the last one still wins).
  private static func sorted(_ members: [JSONMember]) -> [JSONMember] {
    members.sorted { $0.key < $1.key }
  }

  // MARK: - Output buffer

  @inline(__always)
  private mutating func reserve(_ additional: Int) {
    if count &+ additional > capacity {
      grow(minimumCapacity: count + additional)
    }
  }

  private mutating func grow(minimumCapacity: Int) {
    let newCapacity = max(capacity * 2, minimumCapacity)
    let newBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBuffer.initialize(from: buffer, count: count)
    buffer.deallocate()
    buffer = newBuffer
    capacity = newCapacity
  }

  @inline(__always)
  private mutating func append(_ byte: UInt8) {
    reserve(1)
    buffer[count] = byte
    count &+= 1
  }

  private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    (buffer + count).initialize(from: source, count: bytes.count)
    count &+= bytes.count
  }

  private mutating func append(_ text: StaticString) {
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  private mutating func startChild(first: Bool, depth: Int) {
    if !first {
      append(UInt8(ascii: ","))
    }
    newline(depth: depth)
  }

  private mutating func newline(depth: Int) {
    guard prettyPrinted else { return }
    reserve(1 + 2 * depth)
    buffer[count] = 0x0A
    (buffer + count + 1).initialize(repeating: UInt8(ascii: " "), count: 2 * depth)
    count &+= 1 + 2 * depth
  }

  // MARK: - Numbers

  private mutating func writeNumber(_ number: Double) {
    guard number.isFinite else {
      // Not representable in JSON; write a string so the output stays valid.
      append(number.isNaN ? "\"nan\"" : number < 0 ? "\"-inf\"" : "\"inf\"")
      return
    }
    if number.magnitude < 9_007_199_254_740_992 && number.rounded(.towardZero) == number {
      if number.sign == .minus {
        append(UInt8(ascii: "-"))
      }
      writeDigits(UInt64(number.magnitude))
      if distinguishingDoubles { append(".0") }
    } else {
      var text = number.description
      text.withUTF8 { append($0) }
    }
  }

  /// Writes an integer digit for digit (`Int64.min` included: its magnitude fits a `UInt64`).
  private mutating func writeInteger(_ integer: Int64) {
    if integer < 0 {
      append(UInt8(ascii: "-"))
    }
    writeDigits(integer.magnitude)
  }

  private mutating func writeDigits(_ value: UInt64) {
    var digitCount = 1
    var remaining = value / 10
    while remaining > 0 {
      digitCount += 1
      remaining /= 10
    }
    reserve(digitCount)
    var rest = value
    var position = count + digitCount
    repeat {
      position -= 1
      buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    } while rest > 0
    count += digitCount
  }

  // MARK: - Strings

  private static let hexDigits: StaticString = "0123456789abcdef"

  private mutating func writeString(_ string: String) {
    let written: Void? = string.utf8.withContiguousStorageIfAvailable { writeString(utf8: $0) }
    if written == nil {
      var string = string
      string.withUTF8 { writeString(utf8: $0) }
    }
  }

  private mutating func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    // Worst case every byte becomes a six-byte \u00XX escape; the extra
    // eight bytes let the word-at-a-time loop store whole words.
    reserve(10 + 6 * bytes.count)
    buffer[count] = UInt8(ascii: "\"")
    count &+= 1
    if let source = bytes.baseAddress {
      let end = bytes.count
      var position = 0
      while position < end {
        let byte: UInt8
        if position &+ 8 <= end {
          // Copy eight bytes at a time up to the first byte that needs escaping.
          let word = UnsafeRawPointer(source + position).loadUnaligned(as: UInt64.self)
          UnsafeMutableRawPointer(buffer + count).storeBytes(of: word, as: UInt64.self)
          let plain = Self.plainByteCount(UInt64(littleEndian: word))
          count &+= plain
          position &+= plain
          if plain == 8 { continue }
          byte = source[position]
        } else {
          byte = source[position]
          if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
            buffer[count] = byte
            count &+= 1
            position &+= 1
            continue
          }
        }
        writeEscape(byte)
        position &+= 1
      }
    }
    buffer[count] = UInt8(ascii: "\"")
    count &+= 1
  }

  /// Writes the escape sequence of a byte that must not appear raw in a string.
  private mutating func writeEscape(_ byte: UInt8) {
    buffer[count] = UInt8(ascii: "\\")
    switch byte {
    case UInt8(ascii: "\""): buffer[count &+ 1] = UInt8(ascii: "\"")
    case UInt8(ascii: "\\"): buffer[count &+ 1] = UInt8(ascii: "\\")
    case 0x0A: buffer[count &+ 1] = UInt8(ascii: "n")
    case 0x0D: buffer[count &+ 1] = UInt8(ascii: "r")
    case 0x09: buffer[count &+ 1] = UInt8(ascii: "t")
    case 0x08: buffer[count &+ 1] = UInt8(ascii: "b")
    case 0x0C: buffer[count &+ 1] = UInt8(ascii: "f")
    default:
      let hex = Self.hexDigits.utf8Start
      buffer[count &+ 1] = UInt8(ascii: "u")
      buffer[count &+ 2] = UInt8(ascii: "0")
      buffer[count &+ 3] = UInt8(ascii: "0")
      buffer[count &+ 4] = hex[Int(byte &>> 4)]
      buffer[count &+ 5] = hex[Int(byte & 0x0F)]
      count &+= 4
    }
    count &+= 2
  }

  /// How many of the eight bytes in `word` (first byte lowest) come before
  /// the first one that needs escaping ('"', '\\' or a control character).
  @inline(__always)
  private static func plainByteCount(_ word: UInt64) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
    let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
    // Bytes 0x80 and up are excluded by `& ~word`; the lowest flagged
    // byte is always a real match.
    let special =
      (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | (word &- ones &* 0x20))
      & ~word & (ones &* 0x80)
    return special.trailingZeroBitCount &>> 3
  }
}
