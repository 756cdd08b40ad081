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
/// (the output is allocated at that length and written in place from its start: its count is
/// the bytes the elements wrote, and a copy reads only bytes already written).
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
    let output = try UnsafeSnappyElements.decoded(input[position...], base: position - input.startIndex, length: length)
    guard output.count == length else {
      throw CodecError("the Snappy block holds \(output.count) bytes, its header says \(length)")
    }
    return output
  }

  /// The bytes of the Snappy block `input`, at most `limit` of them.
  public static func decompress(_ input: [UInt8], limit: Int) throws(CodecError) -> [UInt8] {
    try decompress(input[...], limit: limit)
  }
}
