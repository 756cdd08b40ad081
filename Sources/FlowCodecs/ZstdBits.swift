/// Bit access for Zstandard (RFC 8878): FSE table headers read forward (little-endian bits from
/// the first byte), and every entropy-coded stream read backward (from the highest bit of its
/// last byte, below the end marker, toward the first).
///
/// Invariants: a read never uses a bit outside `start..<end` (a word load may fetch bytes of the
/// array past `end`, which are masked off) nor touches a byte outside the array; reading backward past the
/// stream's start yields zero bits and leaves `remaining` negative (what zstd calls overflow,
/// which the callers check); reading forward past the end throws.
struct ZstdBits {
  let bytes: [UInt8]
  let start: Int
  /// The bits of the stream (backward: up to the end marker).
  let total: Int
  /// Backward: the bits not yet read (negative once reads went past the start).
  var remaining: Int
  /// Forward: the bits read so far.
  var consumed = 0

  /// A backward stream over `bytes[start..<end]`.
  init(backward bytes: [UInt8], _ start: Int, _ end: Int) throws(CodecError) {
    guard end > start, bytes[end - 1] != 0 else { throw CodecError("a Zstandard bitstream without its end marker") }
    self.bytes = bytes
    self.start = start
    total = (end - start - 1) * 8 + (7 - bytes[end - 1].leadingZeroBitCount)
    remaining = total
  }

  /// A forward stream over `bytes[start..<end]`.
  init(forward bytes: [UInt8], _ start: Int, _ end: Int) {
    self.bytes = bytes
    self.start = start
    total = (end - start) * 8
    remaining = total
  }

  /// Backward: the next `count` bits (at most 56), zeros past the start.
  mutating func read(_ count: Int) -> UInt64 {
    guard count > 0 else { return 0 }
    remaining -= count
    return bits(at: remaining, count)
  }

  /// Backward: the next `count` bits without consuming them.
  func peek(_ count: Int) -> UInt64 { bits(at: remaining - count, count) }

  /// Forward: the next `count` bits (at most 56).
  mutating func readForward(_ count: Int) throws(CodecError) -> UInt64 {
    guard consumed + count <= total else { throw CodecError("a Zstandard table description ends early") }
    defer { consumed += count }
    return bits(at: consumed, count)
  }

  /// Forward: the next `count` bits without consuming them (zeros past the end).
  func peekForward(_ count: Int) -> UInt64 {
    let available = min(count, total - consumed)
    return available > 0 ? bits(at: consumed, available) : 0
  }

  /// `count` bits from bit `position` (bits before 0 are zeros); `position + count <= total`.
  private func bits(at position: Int, _ count: Int) -> UInt64 {
    if position < 0 {
      let high = position + count
      return high > 0 ? bits(at: 0, high) << UInt64(-position) : 0
    }
    let first = position >> 3
    let shift = position & 7
    var window: UInt64 = 0
    // A word where the array holds 8 bytes from there (bits past the stream are masked off).
    if let word = UnsafeWordLoad.word(bytes, at: start + first) {
      window = word
    } else {
      for index in 0..<(count + shift + 7) / 8 { window |= UInt64(bytes[start + first + index]) << UInt64(8 * index) }
    }
    let value = window >> UInt64(shift)
    return count >= 64 ? value : value & ((1 << UInt64(count)) - 1)
  }
}
