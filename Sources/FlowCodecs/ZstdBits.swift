/// Bit access for Zstandard (RFC 8878): FSE table headers read forward (little-endian bits from
/// the first byte), and every entropy-coded stream read backward (from the highest bit of its
/// last byte, below the end marker, toward the first).
///
/// Invariants: a read never uses a bit outside `start..<end` (a word load may fetch bytes of the
/// array past `end`, which are masked off) nor touches a byte outside the array; reading backward past the
/// stream's start yields zero bits and leaves `remaining` negative (what zstd calls overflow,
/// which the callers check); reading forward past the end throws. Backward reads go through a
/// 64-bit window, the stream's bits from `windowBit` (bytes past the array are zeros), loaded
/// so that its top lies at or above the highest bit any later backward read asks for (reads
/// only go down): a read whose bits lie at or above `windowBit` is a shift and a mask, and
/// any other refills the window first.
struct ZstdBits {
  let bytes: [UInt8]
  let start: Int
  /// The bits of the stream (backward: up to the end marker).
  let total: Int
  /// Backward: the bits not yet read (negative once reads went past the start).
  var remaining: Int
  /// Forward: the bits read so far.
  var consumed = 0
  /// Backward reads' window: 64 bits of the stream from bit `windowBit` (above every stream's
  /// bits, and far enough from `Int.max` that `remaining - windowBit` cannot wrap: none yet).
  private var window: UInt64 = 0
  private var windowBit = Int.max / 2

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

  /// Backward: the next `count` bits (0…56), zeros past the start.
  @inline(__always)
  mutating func read(_ count: Int) -> UInt64 {
    remaining -= count
    let offset = remaining &- windowBit
    guard offset >= 0 else { return refilled(count) }
    return window &>> UInt64(truncatingIfNeeded: offset) & ((1 &<< UInt64(truncatingIfNeeded: count)) &- 1)
  }

  /// Backward: the next `count` bits (0…56) without consuming them.
  @inline(__always)
  mutating func peek(_ count: Int) -> UInt64 {
    let value = read(count)
    remaining += count
    return value
  }

  /// The `count` bits at `remaining` (just moved down past them), the window first moved down
  /// to its lowest start whose top still covers them (bits at or below `remaining + count`
  /// are all any later backward read asks for); past the start, the bits as `bits(at:)` gives.
  @inline(never)
  private mutating func refilled(_ count: Int) -> UInt64 {
    let position = remaining
    guard position >= 0 else { return count > 0 ? bits(at: position, count) : 0 }
    let byte = max(0, (position + count - 57) >> 3)
    if let word = UnsafeWordLoad.word(bytes, at: start + byte) {
      window = word
    } else {
      window = 0
      for index in 0..<min(8, bytes.count - (start + byte)) {
        window |= UInt64(bytes[start + byte + index]) << UInt64(8 * index)
      }
    }
    windowBit = byte * 8
    return window &>> UInt64(position - windowBit) & ((1 &<< UInt64(count)) &- 1)
  }

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
