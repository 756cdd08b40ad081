/// Makes strings of at most 15 ASCII bytes straight from their bytes, as the standard library
/// lays them out itself (a "small" string: the bytes inline in the value's two words, the count
/// and flags in the top byte), without calling into it to validate and pack them: the element
/// scanner makes millions of such ids (`"n123456"`), and this is most of what that costs.
///
/// Why unsafe, and why it is sound:
/// - A small string is nothing but its 16 bytes (no allocation, no reference count): two values
///   with the same bits are the same string. The layout assumed — bytes 0…14 in order in the two
///   little-endian words, the top byte `0xE0 | count` (immortal, ASCII, small) — is checked once
///   at run time against strings the standard library made, for every count from 0 to 15
///   (`isAvailable`); where it does not hold (another platform or a future library), every
///   string is made the ordinary way.
/// - `make(_:count:end:)` is only called with bytes already checked to be ASCII (below 0x80)
///   and a count of at most 15, read from inside the document buffer; `make(low:high:count:)`
///   checks the bytes itself, and is given well-formed UTF-8 (the parser's short strings).
enum UnsafeSmallASCIIString {
  /// Whether this platform's strings have the small ASCII layout assumed.
  static let isAvailable: Bool = {
    #if (arch(x86_64) || arch(arm64)) && _endian(little)
    guard MemoryLayout<String>.size == 16 else { return false }
    let alphabet = Array("aZ0 ~-_.q7xyzwv".utf8)
    for count in 0...15 {
      let bytes = Array(alphabet.prefix(count))
      var expected = String(decoding: bytes, as: UTF8.self)
      expected.makeContiguousUTF8()
      let words = pack(bytes, count: count)
      let actual = withUnsafeBytes(of: expected) { Array($0) }
      let packed = withUnsafeBytes(of: words) { Array($0) }
      guard actual == packed else { return false }
      // The same string when read back, too.
      let made = unsafeBitCast(words, to: String.self)
      guard made == expected, Array(made.utf8) == bytes, made.utf8.count == count else { return false }
    }
    return true
    #else
    return false
    #endif
  }()

  /// The two words of the small ASCII string of the first `count` (≤ 15) of `bytes`.
  private static func pack(_ bytes: [UInt8], count: Int) -> (UInt64, UInt64) {
    var low: UInt64 = 0
    var high: UInt64 = 0
    for offset in 0..<count {
      if offset < 8 {
        low |= UInt64(bytes[offset]) << (8 * offset)
      } else {
        high |= UInt64(bytes[offset]) << (8 * (offset - 8))
      }
    }
    return (low, high | UInt64(0xE0 | count) << 56)
  }

  /// The first `count` (≤ 16) bytes at `start` packed little-endian into two words, every other
  /// byte zero, where `start + count <= end` (the buffer's end): two unaligned loads when the
  /// buffer has 16 bytes from `start`, else byte by byte.
  @inline(__always)
  static func words(_ start: UnsafePointer<UInt8>, count: Int, end: UnsafePointer<UInt8>) -> (low: UInt64, high: UInt64)
  {
    var low: UInt64 = 0
    var high: UInt64 = 0
    if end - start >= 16 {
      // Two unaligned loads inside the buffer, masked to the string's bytes.
      let raw = UnsafeRawPointer(start)
      let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
      if count >= 8 {
        low = first
        if count > 8 {
          let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
          high = second & (UInt64.max &>> (8 &* (16 &- count)))
        }
      } else if count > 0 {
        low = first & (UInt64.max &>> (8 &* (8 &- count)))
      }
    } else {
      for offset in 0..<count {
        if offset < 8 {
          low |= UInt64(start[offset]) &<< (8 &* offset)
        } else {
          high |= UInt64(start[offset]) &<< (8 &* (offset &- 8))
        }
      }
    }
    return (low, high)
  }

  /// The string of the `count` (≤ 15) ASCII bytes at `start`, where `start + count <= end` (the
  /// buffer's end); only when `isAvailable`.
  @inline(__always)
  static func make(_ start: UnsafePointer<UInt8>, count: Int, end: UnsafePointer<UInt8>) -> String {
    let (low, high) = words(start, count: count, end: end)
    return unsafeBitCast((low, high | UInt64(0xE0 | count) &<< 56), to: String.self)
  }

  /// The string of the `count` (≤ 15) bytes packed little-endian in `low` and `high` (bytes 8…14;
  /// its top byte 0, as every byte past `count`), if they are all ASCII and `isAvailable`.
  @inline(__always)
  static func make(low: UInt64, high: UInt64, count: Int) -> String? {
    guard (low | high) & 0x8080_8080_8080_8080 == 0, isAvailable else { return nil }
    return unsafeBitCast((low, high | UInt64(0xE0 | count) &<< 56), to: String.self)
  }
}
