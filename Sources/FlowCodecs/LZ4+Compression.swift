/// LZ4 block compression (Parquet's `LZ4_RAW`): a greedy matcher over a hash table of 4-byte
/// sequences.
///
/// Invariants (the block format's end rules): the last 5 bytes are always literals and no
/// match starts in the last 12; every match's offset is 1…65,535 and reaches only bytes before
/// it; every byte of the input is a literal or inside exactly one match, so `decompressBlock`
/// gives back exactly the input (the round-trip property tests check this, and the `lz4`
/// package reads it). Work is linear: misses skip ahead faster the longer no match is found.
extension LZ4 {
  /// The LZ4 block of `input` (one sequence of literals for an empty or short input).
  public static func compressBlock(_ input: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(16 + input.count + input.count / 255)
    var table = [Int](repeating: -1, count: 1 << 12)
    let count = input.count
    var anchor = 0
    var position = 0
    while position < count - 12 {
      let word = load32(input, position)
      let slot = Int((word &* 0x9E37_79B1) >> 20)
      let candidate = table[slot]
      table[slot] = position
      guard candidate >= 0, position - candidate <= 65_535, load32(input, candidate) == word else {
        position += 1 + (position - anchor) >> 6
        continue
      }
      var matched = 4
      while position + matched < count - 5, input[candidate + matched] == input[position + matched] { matched += 1 }
      appendSequence(input, literals: anchor..<position, offset: position - candidate, match: matched, to: &output)
      position += matched
      anchor = position
    }
    appendSequence(input, literals: anchor..<count, offset: 0, match: 0, to: &output)
    return output
  }

  private static func load32(_ input: [UInt8], _ at: Int) -> UInt32 {
    UInt32(input[at]) | UInt32(input[at + 1]) << 8 | UInt32(input[at + 2]) << 16 | UInt32(input[at + 3]) << 24
  }

  /// A token, the literals, and (when `match` > 0) the offset and the match length.
  private static func appendSequence(
    _ input: [UInt8], literals: Range<Int>, offset: Int, match: Int,
    to output: inout [UInt8]
  ) {
    let matchCode = max(0, match - 4)
    output.append(UInt8(min(literals.count, 15) << 4 | min(matchCode, 15)))
    appendLength(literals.count, to: &output)
    output.append(contentsOf: input[literals])
    guard match > 0 else { return }
    output.append(UInt8(offset & 0xFF))
    output.append(UInt8(offset >> 8))
    appendLength(matchCode, to: &output)
  }

  /// The bytes after a nibble of 15: 255s, then the rest.
  private static func appendLength(_ length: Int, to output: inout [UInt8]) {
    guard length >= 15 else { return }
    var left = length - 15
    while left >= 255 {
      output.append(255)
      left -= 255
    }
    output.append(UInt8(left))
  }
}
