// Invariants: these helpers work on 8-byte words already loaded (little-endian: the first
// byte lowest) and on 64-byte blocks: `candidateMask(_:at:_:)` loads eight words at
// `offset ..< offset + 64`, which its caller guarantees lie inside the buffer
// (`offset + 64 <= buffer.count`). Nothing here writes memory.

extension UnsafeCSVScanner {
  /// The index (0–7) of the first byte of `word` (little-endian: its low byte first) that is
  /// below `"` + 1 (line feed, carriage return, quote, space, other controls) or equals the
  /// byte of `delimiterWord`; 8 if none. Exact for the first such byte (the borrows of the
  /// subtractions only ever mark bytes above it).
  @inline(__always)
  static func firstCandidate(_ word: UInt64, _ delimiterWord: UInt64) -> Int {
    let other = word ^ delimiterWord
    let low = (word &- 0x2323_2323_2323_2323) & ~word
    let matches = (other &- ones) & ~other
    return ((low | matches) & highs).trailingZeroBitCount &>> 3
  }

  /// The high bit of each byte of `word` that is below `"` + 1 or equals the byte of
  /// `delimiterWord` (exact for every byte: no carries between bytes).
  @inline(__always)
  static func candidates(_ word: UInt64, _ delimiterWord: UInt64) -> UInt64 {
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    // The high bit of `(byte & 0x7F) + 0x5D` is set exactly when `byte & 0x7F >= 0x23`.
    let below = ~(((word & low) &+ 0x5D5D_5D5D_5D5D_5D5D) | word)
    let other = word ^ delimiterWord
    let matches = ~(((other & low) &+ low) | other)
    return (below | matches) & highs
  }

  /// One bit per byte of `highBits` (only byte high bits set): bit `k` for byte `k`.
  @inline(__always)
  static func byteBits(_ highBits: UInt64) -> UInt64 {
    // Each byte's bit lands at a distinct position of the product: no carries.
    ((highBits &>> 7) &* 0x0102_0408_1020_4080) &>> 56
  }

  /// Bit `k` set exactly for the byte `offset + k` (`k` < 64) of `raw` that may end an unquoted
  /// field or is counted in one: below `"` + 1, or the delimiter (the bytes `firstCandidate`
  /// stops at). The caller guarantees `offset + 64 <= ` the buffer's count.
  @inline(__always)
  static func candidateMask(_ raw: UnsafeRawPointer, at offset: Int, _ delimiterWord: UInt64) -> UInt64 {
    var mask: UInt64 = 0
    var k = 0
    while k < 64 {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset &+ k, as: UInt64.self))
      mask |= byteBits(candidates(word, delimiterWord)) &<< UInt64(k)
      k &+= 8
    }
    return mask
  }

  /// The high bit of the first byte of `word` (its low byte first) that equals the byte of
  /// `pattern`, and maybe of bytes after it (a borrow only ever marks bytes above a match); 0
  /// if none matches.
  @inline(__always)
  static func firstMatches(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
    let x = word ^ pattern
    return (x &- ones) & ~x & highs
  }

  /// The high bit of each byte of `word` that equals the byte of `pattern` (exact: no carries
  /// between bytes).
  @inline(__always)
  static func exactMatches(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
    let x = word ^ pattern, low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return ~(((x & low) &+ low) | x | low)
  }
}
