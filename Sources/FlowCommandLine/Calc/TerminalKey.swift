/// A key (or key chord) read from a terminal in raw mode, as `flow calc`'s line editor sees it.
enum TerminalKey: Equatable, Sendable {
  /// A printable character to insert.
  case character(Character)
  case left, right, up, down, home, end
  /// Backspace: delete the character before the cursor.
  case backspace
  /// Delete (and Ctrl-D on a non-empty line): the character under the cursor.
  case delete
  /// Ctrl-K: delete to the end of the line.
  case killToEnd
  /// Ctrl-U: delete to the start of the line.
  case killToStart
  /// Ctrl-W: delete the word before the cursor.
  case killWord
  /// Enter.
  case enter
  /// Ctrl-D on an empty line: end of input.
  case endOfInput
  /// Ctrl-C: abandon the line.
  case interrupt
  /// Ctrl-L: redraw.
  case redraw
  /// A sequence the editor does not know (ignored).
  case unknown
}

/// Turns the bytes a terminal sends into `TerminalKey`s: control bytes (Ctrl-A…), escape
/// sequences (`ESC [ A`, `ESC O H`, `ESC [ 3 ~`, …) and UTF-8 characters. Bytes may arrive in
/// any split: an incomplete sequence waits in `pending` for the next read.
///
/// Bounded: an escape sequence longer than 16 bytes, or a malformed UTF-8 sequence, becomes
/// `.unknown` and is dropped.
struct KeyDecoder {
  private(set) var pending: [UInt8] = []

  /// Appends `bytes` and returns the complete keys they finish.
  mutating func keys(from bytes: some Sequence<UInt8>) -> [TerminalKey] {
    pending.append(contentsOf: bytes)
    var keys: [TerminalKey] = []
    while let (key, length) = Self.decode(pending) {
      keys.append(key)
      pending.removeFirst(length)
    }
    return keys
  }

  /// The key at the start of `bytes` and its length, or `nil` if more bytes are needed.
  static func decode(_ bytes: [UInt8]) -> (TerminalKey, Int)? {
    guard let first = bytes.first else { return nil }
    switch first {
    case 0x1B: return escape(bytes)
    case 0x01: return (.home, 1)
    case 0x02: return (.left, 1)
    case 0x03: return (.interrupt, 1)
    case 0x04: return (.endOfInput, 1)  // the editor turns it into `.delete` on a non-empty line
    case 0x05: return (.end, 1)
    case 0x06: return (.right, 1)
    case 0x08, 0x7F: return (.backspace, 1)
    case 0x0A, 0x0D: return (.enter, 1)
    case 0x0B: return (.killToEnd, 1)
    case 0x0C: return (.redraw, 1)
    case 0x0E: return (.down, 1)
    case 0x10: return (.up, 1)
    case 0x15: return (.killToStart, 1)
    case 0x17: return (.killWord, 1)
    case 0x00..<0x20: return (.unknown, 1)
    default: return character(bytes)
    }
  }

  /// `ESC [ …` (CSI: parameters, then a final byte in 0x40…0x7E) or `ESC O x` (SS3).
  private static func escape(_ bytes: [UInt8]) -> (TerminalKey, Int)? {
    guard bytes.count >= 2 else { return nil }
    switch bytes[1] {
    case UInt8(ascii: "["):
      var end = 2
      while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) {
        end += 1
        if end > 16 { return (.unknown, end) }
      }
      guard end < bytes.count else { return nil }
      let parameters = String(decoding: bytes[2..<end], as: UTF8.self)
      let key: TerminalKey
      switch bytes[end] {
      case UInt8(ascii: "A"): key = .up
      case UInt8(ascii: "B"): key = .down
      case UInt8(ascii: "C"): key = .right
      case UInt8(ascii: "D"): key = .left
      case UInt8(ascii: "H"): key = .home
      case UInt8(ascii: "F"): key = .end
      case UInt8(ascii: "~"):
        switch parameters {
        case "1", "7": key = .home
        case "4", "8": key = .end
        case "3": key = .delete
        default: key = .unknown
        }
      default: key = .unknown
      }
      return (key, end + 1)
    case UInt8(ascii: "O"):
      guard bytes.count >= 3 else { return nil }
      switch bytes[2] {
      case UInt8(ascii: "H"): return (.home, 3)
      case UInt8(ascii: "F"): return (.end, 3)
      case UInt8(ascii: "A"): return (.up, 3)
      case UInt8(ascii: "B"): return (.down, 3)
      case UInt8(ascii: "C"): return (.right, 3)
      case UInt8(ascii: "D"): return (.left, 3)
      default: return (.unknown, 3)
      }
    default:
      return (.unknown, 1)  // a lone ESC (or Alt-x): dropped
    }
  }

  /// One UTF-8 character (a scalar; combining marks arrive as their own scalars and join the
  /// character before them in the editor's `String`).
  private static func character(_ bytes: [UInt8]) -> (TerminalKey, Int)? {
    let first = bytes[0]
    let length: Int
    switch first {
    case 0x20..<0x80: return (.character(Character(Unicode.Scalar(first))), 1)
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return (.unknown, 1)
    }
    guard bytes.count >= length else { return nil }
    let slice = bytes[0..<length]
    guard slice.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }) else { return (.unknown, 1) }
    var decoder = UTF8()
    var iterator = slice.makeIterator()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return (.unknown, length) }
    return (.character(Character(scalar)), length)
  }
}
