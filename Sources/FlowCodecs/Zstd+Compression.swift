/// Zstandard compression (RFC 8878): one frame with the content size, blocks of at most 128 KiB,
/// each stored as whichever is smallest of an RLE block, a raw block, or a compressed block
/// (raw or RLE literals; sequences from `ZstdMatcher` coded with the predefined FSE tables).
///
/// Invariants: a frame of up to 8 MiB is a single segment (its window is its content, so any
/// earlier byte may be matched); a larger one declares an 8 MiB window and no match reaches
/// further. Every block's size is at most 128 KiB and the last block carries the last-block bit;
/// a compressed block is kept only when it is smaller than the raw block, and its repeat
/// offsets are put back otherwise, so `decompress` gives back exactly the input (the property
/// tests check this, and the `zstandard` package reads it). The optional checksum is the low
/// 32 bits of the content's XXH64.
extension Zstd {
  /// Blocks hold at most this many bytes of content (the format's maximum).
  static let blockLimit = 128 << 10
  /// Frames up to this size are one segment; larger ones use a window of this size.
  static let singleSegmentLimit = 8 << 20

  /// The Zstandard frame of `input`, with the content checksum when `checksum` is set.
  public static func compress(_ input: [UInt8], checksum: Bool = true) -> [UInt8] {
    let count = input.count
    let single = count <= singleSegmentLimit
    let sizeFlag = single && count < 256 ? 0 : count < 65_536 + 256 ? 1 : count <= Int(UInt32.max) ? 2 : 3
    var output: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, UInt8(sizeFlag << 6 | (single ? 32 : 0) | (checksum ? 4 : 0))]
    output.reserveCapacity(32 + count + count / 64)
    if !single { output.append(UInt8((23 - 10) << 3)) }
    let stored = sizeFlag == 1 ? count - 256 : count
    for index in 0..<[1, 2, 4, 8][sizeFlag] { output.append(UInt8(truncatingIfNeeded: stored >> (8 * index))) }
    var matcher = ZstdMatcher(input, window: single ? max(count, 1) : singleSegmentLimit)
    var start = 0
    repeat {
      let end = min(count, start + blockLimit)
      appendBlock(start..<end, last: end == count, matcher: &matcher, to: &output)
      start = end
    } while start < count
    if checksum {
      let hash = XXHash64.hash(input)
      for index in 0..<4 { output.append(UInt8(truncatingIfNeeded: hash >> UInt64(8 * index))) }
    }
    return output
  }

  /// One block of `input[range]`: RLE, compressed, or raw, whichever is smallest.
  private static func appendBlock(_ range: Range<Int>, last: Bool, matcher: inout ZstdMatcher, to output: inout [UInt8])
  {
    let input = matcher.input
    func header(type: Int, size: Int) {
      let value = size << 3 | type << 1 | (last ? 1 : 0)
      output += [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value >> 16)]
    }
    if range.count > 1, !input[range].contains(where: { $0 != input[range.lowerBound] }) {
      header(type: 1, size: range.count)
      output.append(input[range.lowerBound])
      return
    }
    let saved = matcher.saved
    let (sequences, literals) = matcher.block(range)
    var body: [UInt8] = []
    appendLiterals(literals, to: &body)
    ZstdSequenceWriter.write(sequences, to: &body)
    if body.count < range.count {
      header(type: 2, size: body.count)
      output += body
    } else {
      matcher.restore(saved)
      header(type: 0, size: range.count)
      output += input[range]
    }
  }

  /// A literals section: RLE when every literal is the same byte, raw otherwise.
  private static func appendLiterals(_ literals: [UInt8], to output: inout [UInt8]) {
    let count = literals.count
    let rle = count > 1 && !literals.contains(where: { $0 != literals[0] })
    let type = rle ? 1 : 0
    if count < 32 {
      output.append(UInt8(count << 3 | type))
    } else if count < 4_096 {
      output += [UInt8((count << 4 | 1 << 2 | type) & 0xFF), UInt8(count >> 4)]
    } else {
      let value = count << 4 | 3 << 2 | type
      output += [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value >> 16)]
    }
    if rle { output.append(literals[0]) } else { output += literals }
  }
}
