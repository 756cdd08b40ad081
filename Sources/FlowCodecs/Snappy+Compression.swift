/// Snappy compression: a greedy matcher over a hash table of 4-byte sequences.
///
/// Invariants: every copy's offset is 1…65,535 and points at bytes already emitted (the table
/// holds only earlier positions), its length 4…64 per element; every literal covers exactly the
/// bytes between copies; the block starts with the input's length, so `decompress` gives back
/// exactly the input (the round-trip property tests check this, and python-snappy reads it).
/// Work is linear: each position is hashed at most once, and misses skip ahead faster the
/// longer no match is found.
extension Snappy {
  /// The Snappy block of `input`.
  public static func compress(_ input: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(32 + input.count + input.count / 6)
    var length = input.count
    while length >= 0x80 {
      output.append(UInt8(length & 0x7F) | 0x80)
      length >>= 7
    }
    output.append(UInt8(length))
    var table = [Int](repeating: -1, count: 1 << 14)
    var literalStart = 0
    var position = 0
    let count = input.count
    while count - position >= 4 {
      let word = load32(input, position)
      let slot = Int((word &* 0x1E35_A7BD) >> 18)
      let candidate = table[slot]
      table[slot] = position
      guard candidate >= 0, position - candidate <= 65_535, load32(input, candidate) == word else {
        position += 1 + (position - literalStart) >> 5
        continue
      }
      var matched = 4
      while position + matched < count, input[candidate + matched] == input[position + matched] { matched += 1 }
      appendLiteral(input, literalStart..<position, to: &output)
      appendCopy(offset: position - candidate, length: matched, to: &output)
      position += matched
      literalStart = position
    }
    appendLiteral(input, literalStart..<count, to: &output)
    return output
  }

  private static func load32(_ input: [UInt8], _ at: Int) -> UInt32 {
    UInt32(input[at]) | UInt32(input[at + 1]) << 8 | UInt32(input[at + 2]) << 16 | UInt32(input[at + 3]) << 24
  }

  private static func appendLiteral(_ input: [UInt8], _ range: Range<Int>, to output: inout [UInt8]) {
    guard !range.isEmpty else { return }
    let stored = range.count - 1
    if stored < 60 {
      output.append(UInt8(stored << 2))
    } else {
      var bytes = 1
      while bytes < 4, stored >> (8 * bytes) != 0 { bytes += 1 }
      output.append(UInt8((59 + bytes) << 2))
      for index in 0..<bytes { output.append(UInt8(truncatingIfNeeded: stored >> (8 * index))) }
    }
    output.append(contentsOf: input[range])
  }

  /// Copy elements for a match: 64 bytes at a time (60 once, so the last is at least 4).
  private static func appendCopy(offset: Int, length: Int, to output: inout [UInt8]) {
    var left = length
    while left >= 68 {
      appendCopyElement(offset: offset, length: 64, to: &output)
      left -= 64
    }
    if left > 64 {
      appendCopyElement(offset: offset, length: 60, to: &output)
      left -= 60
    }
    appendCopyElement(offset: offset, length: left, to: &output)
  }

  private static func appendCopyElement(offset: Int, length: Int, to output: inout [UInt8]) {
    if length < 12, offset < 2_048 {
      output.append(UInt8((offset >> 8) << 5 | (length - 4) << 2 | 1))
      output.append(UInt8(offset & 0xFF))
    } else {
      output.append(UInt8((length - 1) << 2 | 2))
      output.append(UInt8(offset & 0xFF))
      output.append(UInt8(offset >> 8))
    }
  }
}
