/// A Zstandard bitstream written for backward reading (RFC 8878 §4.1): bits go in little-endian
/// order from the first byte, and `close` adds the end marker (a 1 bit, then zeros to the byte)
/// that `ZstdBits(backward:)` finds first.
///
/// Invariants: fewer than 8 bits wait in `pending` between calls, so one `add` of up to 56 bits
/// never overflows it; every added value is masked to its width.
struct ZstdBitWriter {
  private(set) var bytes: [UInt8] = []
  private var pending: UInt64 = 0
  private var filled = 0

  /// Appends the low `count` bits of `value` (`count` at most 56).
  mutating func add(_ value: Int, _ count: Int) {
    guard count > 0 else { return }
    pending |= (UInt64(truncatingIfNeeded: value) & ((1 << UInt64(count)) - 1)) << UInt64(filled)
    filled += count
    while filled >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: pending))
      pending >>= 8
      filled -= 8
    }
  }

  /// The stream with its end marker.
  mutating func close() -> [UInt8] {
    add(1, 1)
    if filled > 0 { bytes.append(UInt8(truncatingIfNeeded: pending)) }
    pending = 0
    filled = 0
    return bytes
  }
}
