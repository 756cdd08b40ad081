/// Zstandard frames (RFC 8878), decoded: raw, RLE and compressed blocks (Huffman literals, FSE
/// sequences, repeat offsets and tables carried from block to block), skippable frames, and
/// concatenated frames.
///
/// Invariants: every header field, block size, literal run, match offset and length is checked
/// against the input left and the output bound (`limit`), never trusted; a block holds at most
/// its maximum (128 KiB, or the window when smaller) and a frame exactly the content size its
/// header declares, if it does (`ZstdBound`); a frame's matches reach only that frame's
/// output. Dictionaries are not supported (a frame that needs one throws); the optional
/// content checksum (XXH64) is verified.
public enum Zstd {
  /// The data of every frame of `input`, at most `limit` bytes in all.
  ///
  /// - Throws: `CodecError` for a truncated or corrupt stream, or data beyond `limit`.
  public static func decompress(_ input: ArraySlice<UInt8>, limit: Int) throws(CodecError) -> [UInt8] {
    try decompress(Array(input), in: 0..<input.count, limit: limit)
  }

  /// The data of every frame of `bytes[range]`, read in place (a page of a file's buffer is not
  /// copied first), at most `limit` bytes in all. Messages count bytes from the range's start.
  ///
  /// - Precondition: `range` lies inside `bytes`.
  /// - Throws: `CodecError` for a truncated or corrupt stream, or data beyond `limit`.
  public static func decompress(_ bytes: [UInt8], in range: Range<Int>, limit: Int) throws(CodecError) -> [UInt8] {
    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "a Zstandard stream outside its buffer")
    let (base, end) = (range.lowerBound, range.upperBound)
    var output: [UInt8] = []
    var position = base
    guard !range.isEmpty else { throw CodecError("an empty Zstandard stream") }
    while position < end {
      guard end - position >= 4 else {
        throw CodecError("a Zstandard frame header ends early (at byte \(position - base))")
      }
      let magic = littleEndian(bytes, position, 4)
      if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
        guard end - position >= 8 else { throw CodecError("a skippable Zstandard frame ends early") }
        let size = littleEndian(bytes, position + 4, 4)
        guard size <= end - position - 8 else {
          throw CodecError("a skippable Zstandard frame runs past the input")
        }
        position += 8 + size
        continue
      }
      guard magic == 0xFD2F_B528 else { throw CodecError("no Zstandard frame at byte \(position - base)") }
      position = try frame(bytes, at: position + 4, end: end, base: base, into: &output, limit: limit)
    }
    return output
  }

  /// Decodes the frame whose header starts at `start` (its stream ends at `end`, and starts at
  /// `base` for messages); returns the offset after it.
  private static func frame(
    _ bytes: [UInt8], at start: Int, end: Int, base: Int, into output: inout [UInt8], limit: Int
  ) throws(CodecError) -> Int {
    guard start < end else { throw CodecError("a Zstandard frame header ends early") }
    let descriptor = Int(bytes[start])
    guard descriptor & 8 == 0 else { throw CodecError("a reserved Zstandard frame header bit is set") }
    let single = descriptor & 32 != 0
    let dictionaryLength = [0, 1, 2, 4][descriptor & 3]
    let contentLength = [single ? 1 : 0, 2, 4, 8][descriptor >> 6]
    var position = start + 1 + (single ? 0 : 1)
    guard end - position >= dictionaryLength + contentLength else {
      throw CodecError("a Zstandard frame header ends early")
    }
    if dictionaryLength > 0, littleEndian(bytes, position, dictionaryLength) != 0 {
      throw CodecError("a Zstandard frame that needs a dictionary")
    }
    let frameStart = output.count
    let declared =
      contentLength > 0
      ? littleEndian(bytes, position + dictionaryLength, contentLength) + (contentLength == 2 ? 256 : 0) : nil
    // A single segment's window is its content; else the window descriptor's (RFC 8878
    // §3.1.1.1.2). Blocks hold at most 128 KiB, and at most the window.
    var window = declared ?? 0
    if !single {
      let exponent = Int(bytes[start + 1]) >> 3, base = 1 << (10 + exponent)
      window = base + (base >> 3) * (Int(bytes[start + 1]) & 7)
    }
    let bound = ZstdBound(
      limit: limit, declaredEnd: declared.map { frameStart + min($0, Int.max / 2) },
      blockMaximum: min(blockLimit, window))
    if let declared, declared > 0 {
      // Room for the declared content, at most the bound (the blocks still check every byte
      // against both), and a block's slack: the blocks then write without moving it.
      output.reserveCapacity(output.count + min(declared, max(0, limit - output.count)) + UnsafeZstdBlockCopy.slack)
    }
    position += dictionaryLength + contentLength
    var literals = ZstdLiterals.Huffman?.none
    var sequences = ZstdSequences()
    var last = false
    while !last {
      guard end - position >= 3 else {
        throw CodecError("a Zstandard block header ends early (at byte \(position - base))")
      }
      let header = littleEndian(bytes, position, 3)
      position += 3
      last = header & 1 == 1
      let size = header >> 3
      switch (header >> 1) & 3 {
      case 0:
        guard end - position >= size else { throw CodecError("a raw Zstandard block runs past the input") }
        guard output.count + size <= bound.blockEnd(from: output.count) else {
          throw bound.error(reaching: output.count + size)
        }
        output += bytes[position..<position + size]
        position += size
      case 1:
        guard position < end else { throw CodecError("an RLE Zstandard block ends early") }
        guard output.count + size <= bound.blockEnd(from: output.count) else {
          throw bound.error(reaching: output.count + size)
        }
        output += repeatElement(bytes[position], count: size)
        position += 1
      case 2:
        guard size <= blockLimit, end - position >= size else {
          throw CodecError("a compressed Zstandard block runs past the input")
        }
        let blockEnd = position + size
        let (blockLiterals, after) = try ZstdLiterals.read(bytes, at: position, end: blockEnd, huffman: &literals)
        try sequences.execute(
          bytes, at: after, end: blockEnd, literals: blockLiterals, into: &output, frameStart: frameStart, bound: bound)
        position = blockEnd
      default:
        throw CodecError("a Zstandard block of the reserved type 3 (at byte \(position - 3 - base))")
      }
    }
    if let declared, output.count - frameStart != declared {
      throw CodecError("a Zstandard frame holds \(output.count - frameStart) bytes, its header declares \(declared)")
    }
    if descriptor & 4 != 0 {
      guard end - position >= 4 else { throw CodecError("a Zstandard checksum ends early") }
      let expected = littleEndian(bytes, position, 4)
      guard expected == Int(XXHash64.hash(output[frameStart...]) & 0xFFFF_FFFF) else {
        throw CodecError("a Zstandard frame's content does not match its checksum (at byte \(position - base))")
      }
      position += 4
    }
    return position
  }

  private static func littleEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
    var value = 0
    for index in 0..<count { value |= Int(bytes[at + index]) << (8 * index) }
    return value
  }
}
