// Invariants: see `UnsafeCSVPlainIndex`. Blocks are read only at `i ..< i + 64` with
// `i + 64 <= buffer.count`; the last bytes (fewer than 64) are read one at a time below
// `buffer.count`. A block's masks have bits only below its `valid` bytes.

/// The index's quoted blocks: which quotes quote, which delimiters and line feeds are inside
/// quotes, which fields hold `""` escapes, and where the index stops.
extension UnsafeCSVPlainIndex {
  /// Indexes the block at `i` (its `valid` bytes; `next`: the byte after it, `nil` at the
  /// buffer's end) from its masks: delimiters or line feeds (`structural`), line feeds, quotes
  /// and carriage returns. Returns `false` if the index stopped in it (the positions before
  /// the stop are appended).
  @inline(__always)
  mutating func indexQuoted(
    structural: UInt64, lines: UInt64, quotes quoteBits: UInt64, returns: UInt64, at i: Int, valid: Int,
    next: UInt8?
  ) -> Bool {
    let inside = Self.prefixXor(quoteBits) ^ quoting.inside
    let outside = ~inside
    let fieldEnds = structural & outside, lineEnds = lines & outside
    // A quote is inside (after it) where it opens, outside where it closes.
    let opens = quoteBits & inside, closes = quoteBits & outside
    let lastBit: UInt64 = 1 &<< UInt64(valid &- 1)
    // The byte after the block may follow a closing quote: a delimiter, a line feed, a quote
    // (an escape) or the buffer's end.
    var nextMayFollow: UInt64 = 0, nextIsQuote: UInt64 = 0
    if let next {
      if next == UnsafeCSVScanner.quote {
        nextMayFollow = lastBit
        nextIsQuote = lastBit
      } else if next == delimiter || next == UnsafeCSVScanner.newline {
        nextMayFollow = lastBit
      }
    } else {
      nextMayFollow = lastBit
    }
    let mayOpen = (fieldEnds &<< 1) | (closes &<< 1) | quoting.mayOpen
    let mayClose = (structural &>> 1) | (quoteBits &>> 1) | nextMayFollow
    let escapes = closes & ((quoteBits &>> 1) | nextIsQuote)
    let stops = (returns & outside) | (opens & ~mayOpen) | (closes & ~mayClose)
    if stops != 0 {
      let first = stops.trailingZeroBitCount
      let before: UInt64 = (1 &<< UInt64(first)) &- 1
      append(fieldEnds & before, lineEnds & before, escapes: escapes & before, at: i)
      stopAt(i &+ first)
      return false
    }
    append(fieldEnds, lineEnds, escapes: escapes, at: i)
    let last = UInt64(valid &- 1)
    quoting.inside = (inside &>> last) & 1 != 0 ? ~0 : 0
    quoting.mayOpen = ((fieldEnds | closes) &>> last) & 1
    if opens != 0 { quoting.lastOpen = i &+ 63 &- opens.leadingZeroBitCount }
    return true
  }

  /// Sets `escapeFlag` on the entries (of `bits`, written from `first` on) of the fields that
  /// hold one of `escapes` (an escape belongs to the first position after it; one after the
  /// last position, to the next block's first).
  mutating func flagEscapes(_ bits: UInt64, _ escapes: UInt64, _ first: UnsafeMutablePointer<UInt32>) {
    var rest = bits, open = escapes, pending = quoting.escapePending, index = 0
    while rest != 0 {
      let lowest = rest & (0 &- rest)
      let below = lowest &- 1
      if pending || open & below != 0 { first[index] |= Self.escapeFlag }
      pending = false
      open &= ~(below | lowest)
      rest &= rest &- 1
      index &+= 1
    }
    quoting.escapePending = pending || open != 0
  }

  /// Bit `k`: the XOR of `bits`' bits `0...k` (inside quotes after byte `k`, from outside).
  @inline(__always)
  static func prefixXor(_ bits: UInt64) -> UInt64 {
    var x = bits
    x ^= x &<< 1
    x ^= x &<< 2
    x ^= x &<< 4
    x ^= x &<< 8
    x ^= x &<< 16
    x ^= x &<< 32
    return x
  }

  /// The quotes and carriage returns of the 64-byte block at `i`, one bit per byte.
  @inline(__always)
  static func quotesAndReturns(_ raw: UnsafeRawPointer, at i: Int) -> (UInt64, UInt64) {
    let quotes = SIMD16<UInt8>(repeating: UnsafeCSVScanner.quote),
      returns = SIMD16<UInt8>(repeating: UnsafeCSVScanner.carriageReturn)
    let highBits = SIMD8<UInt16>(repeating: 0x8080)
    var quoteLanes = SIMD8<UInt16>(), returnLanes = SIMD8<UInt16>()
    for part in 0..<4 {
      let bytes = raw.loadUnaligned(fromByteOffset: i &+ part &* 16, as: SIMD16<UInt8>.self)
      let shift = UInt16(truncatingIfNeeded: 7 &- part &* 2)
      quoteLanes |= (unsafeBitCast(bytes .== quotes, to: SIMD8<UInt16>.self) & highBits) &>> shift
      returnLanes |= (unsafeBitCast(bytes .== returns, to: SIMD8<UInt16>.self) & highBits) &>> shift
    }
    return (bits(quoteLanes), bits(returnLanes))
  }

  /// The masks of the last bytes of a buffer (fewer than 64), one byte at a time.
  static func tailMasks(_ bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8)
    -> (structural: UInt64, lines: UInt64, quotes: UInt64, returns: UInt64)
  {
    precondition(bytes.count < 64, "a tail of \(bytes.count) bytes")
    var structural: UInt64 = 0, lines: UInt64 = 0, quotes: UInt64 = 0, returns: UInt64 = 0
    for (k, byte) in bytes.enumerated() {
      let bit: UInt64 = 1 &<< UInt64(k)
      if byte == delimiter {
        structural |= bit
      } else if byte == UnsafeCSVScanner.newline {
        structural |= bit
        lines |= bit
      } else if byte == UnsafeCSVScanner.quote {
        quotes |= bit
      } else if byte == UnsafeCSVScanner.carriageReturn {
        returns |= bit
      }
    }
    return (structural, lines, quotes, returns)
  }
}
