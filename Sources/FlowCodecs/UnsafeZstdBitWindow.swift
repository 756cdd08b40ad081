/// A 64-bit window of a Zstandard backward bitstream (RFC 8878 §4.1), for the decoding loops
/// over buffers (`UnsafeZstdSequenceLoop`, `UnsafeZstdHuffmanLoop`): the stream's bits from
/// bit `at` (a multiple of 8), and the bits not yet read (reads go down from `remaining`).
///
/// Invariants: the stream pointer is borrowed from the loop's caller and never escaped. A
/// reload happens only while `remaining ≥ 64` (the loops run while at least their margin of
/// bits is left) and puts the window at byte `(remaining − 57) / 8` of the stream, so at least
/// 57 bits lie below `remaining` in it and its 8 bytes lie inside the stream:
/// `(remaining − 57) / 8 + 8 ≤ (remaining + 7) / 8 ≤` the stream's bytes. A read or a peek
/// takes bits at or above `at` only: the loops read at most `available` bits between reloads.
struct UnsafeZstdBitWindow {
  let stream: UnsafeRawPointer
  var remaining: Int
  var bits: UInt64 = 0
  var at = 0

  init(stream: UnsafeRawPointer, remaining: Int) {
    self.stream = stream
    self.remaining = remaining
  }

  /// Bits below `remaining` left in the window.
  var available: Int { remaining &- at }

  /// The window moved to hold at least 57 bits below `remaining` (`remaining ≥ 64`).
  @inline(__always) mutating func reload() {
    at = (remaining &- 57) & ~7
    bits = UInt64(littleEndian: stream.loadUnaligned(fromByteOffset: at &>> 3, as: UInt64.self))
  }

  /// The next `count` bits (at most `available`).
  @inline(__always) mutating func read(_ count: UInt8) -> Int {
    remaining &-= Int(count)
    let shifted = bits &>> UInt64(truncatingIfNeeded: remaining &- at)
    return Int(truncatingIfNeeded: shifted & ((1 &<< UInt64(count)) &- 1))
  }

  /// The next Huffman symbol of `cells` (`symbol | length << 8`, indexed by the next `log`
  /// bits, masked by `mask`), its length consumed (`log` at most `available`).
  @inline(__always) mutating func symbol(_ cells: UnsafePointer<UInt16>, log: Int, mask: UInt64) -> UInt8 {
    let cell = cells[Int(truncatingIfNeeded: (bits &>> UInt64(truncatingIfNeeded: remaining &- log &- at)) & mask)]
    remaining &-= Int(truncatingIfNeeded: cell &>> 8)
    return UInt8(truncatingIfNeeded: cell)
  }
}
