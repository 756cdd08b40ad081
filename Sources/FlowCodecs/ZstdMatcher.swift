/// The LZ77 match finder of the Zstandard compressor: greedy, over a hash table of 4-byte
/// sequences (like the Snappy and LZ4 compressors), trying the last offset first (a repeat
/// offset costs a few bits), and extending each match backward over literals that match too.
///
/// Invariants: a block's sequences and literals cover exactly its bytes (literals, then a
/// match, per sequence; the literals left after the last one); a match stays inside its block
/// and reaches back at most `window` bytes and never before the input's start; `repeats`
/// mirror the decoder's repeat offsets through `ZstdSequences.resolve`, and `restore` puts them
/// back when a block is stored raw (which leaves the decoder's untouched). Work is linear: each
/// position is hashed at most once, and misses skip ahead faster the longer no match is found.
struct ZstdMatcher {
  let input: [UInt8]
  let window: Int
  private var table: [Int]
  private let shift: UInt32
  private var repeats = ZstdSequences()

  /// A matcher over `input`, whose matches reach back at most `window` bytes.
  init(_ input: [UInt8], window: Int) {
    self.input = input
    self.window = window
    let log = max(8, min(16, Int.bitWidth - input.count.leadingZeroBitCount))
    table = [Int](repeating: -1, count: 1 << log)
    shift = UInt32(32 - log)
  }

  /// The repeat offsets before a block, to put back with `restore`.
  var saved: [Int] { repeats.repeats }

  mutating func restore(_ saved: [Int]) { repeats.repeats = saved }

  /// The sequences and literals of `input[range]`.
  mutating func block(_ range: Range<Int>) -> (sequences: [ZstdSequenceWriter.Sequence], literals: [UInt8]) {
    var sequences: [ZstdSequenceWriter.Sequence] = []
    var literals: [UInt8] = []
    var anchor = range.lowerBound
    var position = range.lowerBound
    let end = range.upperBound
    while end - position >= 8 {
      let word = load32(position)
      let slot = Int((word &* 0x9E37_79B1) >> shift)
      let candidate = table[slot]
      table[slot] = position
      var offset = 0
      let last = repeats.repeats[0]
      if position > anchor, last <= position, last <= window, load32(position - last) == word {
        offset = last
      } else if candidate >= 0, position - candidate <= window, load32(candidate) == word {
        offset = position - candidate
      } else {
        position += 1 + (position - anchor) >> 6
        continue
      }
      var start = position
      while start > anchor, start - offset > 0, input[start - 1] == input[start - 1 - offset] { start -= 1 }
      var matchEnd = position + 4
      while matchEnd < end, input[matchEnd] == input[matchEnd - offset] { matchEnd += 1 }
      let literalLength = start - anchor
      literals += input[anchor..<start]
      sequences.append(
        ZstdSequenceWriter.Sequence(
          literalLength: literalLength, matchLength: matchEnd - start,
          offsetValue: offsetValue(offset, literalLength: literalLength)))
      if matchEnd - 2 > position, end - (matchEnd - 2) >= 4 {
        table[Int((load32(matchEnd - 2) &* 0x9E37_79B1) >> shift)] = matchEnd - 2
      }
      position = matchEnd
      anchor = matchEnd
    }
    literals += input[anchor..<end]
    return (sequences, literals)
  }

  /// The offset value that names `offset` (a repeat code where one matches), updating the
  /// repeat offsets as the decoder will.
  private mutating func offsetValue(_ offset: Int, literalLength: Int) -> Int {
    let current = repeats.repeats
    var value = offset + 3
    if literalLength > 0 {
      if let index = current.firstIndex(of: offset) { value = index + 1 }
    } else if offset == current[1] {
      value = 1
    } else if offset == current[2] {
      value = 2
    } else if offset == current[0] - 1 {
      value = 3
    }
    _ = try? repeats.resolve(value, literalLength: literalLength)
    return value
  }

  private func load32(_ at: Int) -> UInt32 {
    UInt32(input[at]) | UInt32(input[at + 1]) << 8 | UInt32(input[at + 2]) << 16 | UInt32(input[at + 3]) << 24
  }
}
