/// Snappy raw blocks (the format Parquet's `SNAPPY` codec uses; no framing format).
///
/// A block is the uncompressed length as a little-endian base-128 varint, then elements: a
/// literal (tag `00`: a length of 1–60 in the tag or in 1–4 bytes after it, then that many
/// bytes) or a copy of earlier output (tags `01`, `10`, `11`: a length and an offset of 1, 2 or
/// 4 bytes).
///
/// Invariants: the declared length is checked against `limit` before anything is reserved;
/// every literal is checked against the input left and the output bound, every copy's offset
/// against the output written so far (never 0, never before the start) and its length
/// against the output bound; the output is exactly the declared length, or the block throws
/// (the output is allocated at that length, zeroed, and written in place).
public enum Snappy {
  /// The bytes of the Snappy block `input`, at most `limit` of them.
  ///
  /// - Throws: `CodecError` for a truncated or corrupt block, or a length beyond `limit`.
  public static func decompress(_ input: ArraySlice<UInt8>, limit: Int) throws(CodecError) -> [UInt8] {
    var position = input.startIndex
    let end = input.endIndex
    var length = 0
    var shift = 0
    while true {
      guard position < end else { throw CodecError("the Snappy length ends early") }
      let byte = input[position]
      position += 1
      guard shift <= 28 else { throw CodecError("the Snappy length is too long") }
      length |= Int(byte & 0x7F) << shift
      shift += 7
      if byte & 0x80 == 0 { break }
    }
    guard length <= limit else { throw CodecError("the data decompresses to more than \(limit) bytes") }
    // Made at its full length (zeros the system gives cheaply) and written in place.
    var output = [UInt8](repeating: 0, count: length)
    var written = 0
    while position < end {
      let tag = input[position]
      let offsetOfTag = position - input.startIndex
      position += 1
      switch tag & 3 {
      case 0:
        var count = Int(tag >> 2)
        if count >= 60 {
          let extra = count - 59
          guard end - position >= extra else {
            throw CodecError("a Snappy literal's length ends early (at byte \(offsetOfTag))")
          }
          count = 0
          for index in 0..<extra { count |= Int(input[position + index]) << (8 * index) }
          position += extra
        }
        count += 1
        guard end - position >= count else {
          throw CodecError("a Snappy literal runs past the input (at byte \(offsetOfTag))")
        }
        guard length - written >= count else { throw tooLong(length, offsetOfTag) }
        UnsafeMatchCopy.write(&output, at: written, literal: input[position..<position + count])
        written += count
        position += count
      case 1:
        guard end - position >= 1 else { throw CodecError("a Snappy copy ends early (at byte \(offsetOfTag))") }
        let count = 4 + Int((tag >> 2) & 7)
        let offset = Int(tag >> 5) << 8 | Int(input[position])
        position += 1
        try copy(count, offset, &output, &written, offsetOfTag)
      case 2:
        guard end - position >= 2 else { throw CodecError("a Snappy copy ends early (at byte \(offsetOfTag))") }
        let offset = Int(input[position]) | Int(input[position + 1]) << 8
        position += 2
        try copy(1 + Int(tag >> 2), offset, &output, &written, offsetOfTag)
      default:
        guard end - position >= 4 else { throw CodecError("a Snappy copy ends early (at byte \(offsetOfTag))") }
        var offset = 0
        for index in 0..<4 { offset |= Int(input[position + index]) << (8 * index) }
        position += 4
        try copy(1 + Int(tag >> 2), offset, &output, &written, offsetOfTag)
      }
    }
    guard written == length else {
      throw CodecError("the Snappy block holds \(written) bytes, its header says \(length)")
    }
    return output
  }

  /// The bytes of the Snappy block `input`, at most `limit` of them.
  public static func decompress(_ input: [UInt8], limit: Int) throws(CodecError) -> [UInt8] {
    try decompress(input[...], limit: limit)
  }

  /// Writes `count` bytes copied from `offset` bytes back (overlapping copies repeat) at
  /// `written`, in bulk (`UnsafeMatchCopy`).
  private static func copy(_ count: Int, _ offset: Int, _ output: inout [UInt8], _ written: inout Int, _ at: Int)
    throws(CodecError)
  {
    guard offset > 0, offset <= written else {
      throw CodecError("a Snappy copy reaches before the start of the data (offset \(offset), at byte \(at))")
    }
    guard output.count - written >= count else { throw tooLong(output.count, at) }
    UnsafeMatchCopy.write(&output, at: written, distance: offset, length: count)
    written += count
  }

  private static func tooLong(_ length: Int, _ at: Int) -> CodecError {
    CodecError("the Snappy block holds more than the \(length) bytes its header says (at byte \(at))")
  }
}
