// A canonical Huffman code of DEFLATE, decoded through a 10-bit table with a bit-by-bit
// fallback for longer codes.
//
// Invariants: `counts[l]` codes have length `l` (1…15) and `symbols` lists the symbols by
// (length, value), as the canonical code assigns them; the code is not over-subscribed (the
// builder refuses that). `fast[i]` is `symbol << 4 | length` for the code whose bit-reversed
// form is the low `length` bits of `i`, for every code of at most `fastBits` bits, and 0 where
// a longer code (or none) starts.

struct InflateHuffman {
  static let fastBits = 10
  private var counts = [Int](repeating: 0, count: 16)
  private var symbols: [Int] = []
  private var fast = [UInt16](repeating: 0, count: 1 << fastBits)

  /// The code of `lengths` (0: the symbol does not occur).
  ///
  /// - Throws: an over-subscribed code, or an incomplete one unless `allowsIncomplete` (then
  ///   only a single code of length 1 is accepted as incomplete, as zlib does).
  init(lengths: ArraySlice<Int>, what: String, allowsIncomplete: Bool = true) throws(CodecError) {
    for length in lengths { counts[length] += 1 }
    var left = 1
    for length in 1...15 {
      left <<= 1
      left -= counts[length]
      guard left >= 0 else { throw CodecError("an over-subscribed \(what) code") }
    }
    let used = lengths.count - counts[0]
    if left > 0 {
      guard allowsIncomplete, used == counts[1], used <= 1 else { throw CodecError("an incomplete \(what) code") }
    }
    counts[0] = 0
    var offsets = [Int](repeating: 0, count: 16)
    for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
    symbols = [Int](repeating: 0, count: used)
    var next = [Int](repeating: 0, count: 16)  // the next code of each length (RFC 1951 3.2.2)
    var code = 0
    for length in 1...15 {
      code = (code + counts[length - 1]) << 1
      next[length] = code
    }
    for (symbol, length) in zip(0..., lengths) where length > 0 {
      symbols[offsets[length]] = symbol
      offsets[length] += 1
      let assigned = next[length]
      next[length] += 1
      guard length <= Self.fastBits else { continue }
      var index = Int(Deflate.reversed(UInt64(assigned), length))
      while index < fast.count {
        fast[index] = UInt16(symbol << 4 | length)
        index += 1 << length
      }
    }
  }

  /// The next symbol of the stream.
  @inline(__always) func decode(_ bits: inout InflateBits) throws(CodecError) -> Int {
    if bits.count < 15 { bits.refill() }
    let entry = Int(fast[Int(truncatingIfNeeded: bits.buffer) & (fast.count - 1)])
    let length = entry & 15
    if length > 0, length <= bits.count {
      bits.buffer >>= UInt64(length)
      bits.count -= length
      return entry >> 4
    }
    return try decodeSlowly(&bits)
  }

  /// Bit by bit over the canonical code (codes longer than the table, or a stream's end).
  private func decodeSlowly(_ bits: inout InflateBits) throws(CodecError) -> Int {
    var code = 0
    var first = 0
    var index = 0
    for length in 1...15 {
      code |= try bits.take(1)
      let count = counts[length]
      if code - first < count { return symbols[index + code - first] }
      index += count
      first = (first + count) << 1
      code <<= 1
    }
    throw CodecError("a code that is not in the block's Huffman table")
  }
}
