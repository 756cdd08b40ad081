/// LZ4 blocks (Parquet's `LZ4_RAW`) and Hadoop's framing of them (Parquet's older `LZ4`).
///
/// A block is a run of sequences: a token (literal length in the high 4 bits, match length − 4
/// in the low 4; 15 means more bytes follow, each 255 meaning yet another), the literals, then
/// — except in the last sequence — a 2-byte little-endian offset and the match. Hadoop's
/// framing is a run of frames: the frame's decompressed and compressed sizes (4 bytes each,
/// big-endian), then that many bytes of blocks.
///
/// Invariants: every length is checked against the input left and the output bound before
/// bytes move; a match's offset is never 0 and never reaches before the output's start; the
/// output never grows past `limit`.
public enum LZ4 {
  /// The bytes of the LZ4 block `input`, at most `limit` of them.
  ///
  /// - Throws: `CodecError` for a truncated or corrupt block, or output beyond `limit`.
  public static func decompressBlock(_ input: ArraySlice<UInt8>, limit: Int) throws(CodecError) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(min(limit, max(64, input.count * 4)))
    try decompressBlock(input, into: &output, limit: limit)
    return output
  }

  /// Hadoop-framed LZ4 (`input` is a run of frames), at most `limit` bytes in all.
  ///
  /// - Throws: `CodecError` for a truncated or corrupt frame, or output beyond `limit`.
  public static func decompressHadoop(_ input: ArraySlice<UInt8>, limit: Int) throws(CodecError) -> [UInt8] {
    var output: [UInt8] = []
    var position = input.startIndex
    guard !input.isEmpty else { throw CodecError("an empty Hadoop LZ4 stream") }
    while position < input.endIndex {
      guard input.endIndex - position >= 8 else {
        throw CodecError("a Hadoop LZ4 frame header ends early (at byte \(position - input.startIndex))")
      }
      let size = bigEndian(input, position)
      let compressed = bigEndian(input, position + 4)
      position += 8
      guard compressed <= input.endIndex - position else {
        throw CodecError("a Hadoop LZ4 frame runs past the input (at byte \(position - input.startIndex - 8))")
      }
      guard size <= limit - output.count else { throw CodecError("the data decompresses to more than \(limit) bytes") }
      let before = output.count
      try decompressBlock(input[position..<position + compressed], into: &output, limit: before + size)
      guard output.count - before == size else {
        throw CodecError("a Hadoop LZ4 frame holds \(output.count - before) bytes, its header says \(size)")
      }
      position += compressed
    }
    return output
  }

  /// `decompressBlock(_:limit:)` appending to `output` (matches reach only this block's bytes).
  static func decompressBlock(_ input: ArraySlice<UInt8>, into output: inout [UInt8], limit: Int) throws(CodecError) {
    let base = output.count
    var position = input.startIndex
    let end = input.endIndex
    while position < end {
      let token = input[position]
      position += 1
      let literals = try length(Int(token >> 4), input, &position)
      guard end - position >= literals else {
        throw CodecError("LZ4 literals run past the input (at byte \(position - input.startIndex))")
      }
      guard limit - output.count >= literals else {
        throw CodecError("the data decompresses to more than \(limit) bytes")
      }
      output.append(contentsOf: input[position..<position + literals])
      position += literals
      if position == end { return }
      guard end - position >= 2 else {
        throw CodecError("an LZ4 match offset ends early (at byte \(position - input.startIndex))")
      }
      let offset = Int(input[position]) | Int(input[position + 1]) << 8
      position += 2
      let count = try length(Int(token & 15), input, &position) + 4
      guard offset > 0, offset <= output.count - base else {
        throw CodecError(
          "an LZ4 match reaches before the start of the data (offset \(offset), at byte \(position - input.startIndex))"
        )
      }
      guard limit - output.count >= count else { throw CodecError("the data decompresses to more than \(limit) bytes") }
      UnsafeMatchCopy.append(&output, distance: offset, length: count)
    }
    guard output.count == base else { return }
    throw CodecError("an empty LZ4 block")
  }

  /// A literal or match length: `nibble`, plus the bytes after it when it is 15.
  private static func length(_ nibble: Int, _ input: ArraySlice<UInt8>, _ position: inout Int) throws(CodecError) -> Int
  {
    var value = nibble
    guard nibble == 15 else { return value }
    while true {
      guard position < input.endIndex else { throw CodecError("an LZ4 length ends early") }
      let byte = input[position]
      position += 1
      value += Int(byte)
      guard value < 1 << 40 else { throw CodecError("an LZ4 length is too long") }
      if byte != 255 { return value }
    }
  }

  private static func bigEndian(_ input: ArraySlice<UInt8>, _ at: Int) -> Int {
    Int(input[at]) << 24 | Int(input[at + 1]) << 16 | Int(input[at + 2]) << 8 | Int(input[at + 3])
  }
}
