/// The gzip file format (RFC 1952): members of a header, a DEFLATE stream and a trailer with
/// the data's CRC-32 and length.
///
/// Decoding reads every member of a concatenated file (as `gzip -d` and Python's `gzip` do),
/// checks each trailer, and ignores zero bytes after the last member (padding some tools
/// write); anything else after it is an error.
public enum Gzip {
  /// Whether `bytes` start with gzip's magic number.
  public static func isGzip(_ bytes: [UInt8]) -> Bool { bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B }

  /// The data of every member of `input`, at most `limit` bytes in all.
  ///
  /// - Throws: `CodecError` for a bad header, a corrupt stream, a trailer that does not match,
  ///   or data beyond `limit`.
  public static func decompress(_ input: [UInt8], limit: Int) throws(CodecError) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(min(limit, max(1_024, input.count * 4)))
    var position = 0
    repeat {
      let start = output.count
      let body = try headerEnd(input, at: position)
      let end = try Inflate.decompress(input, from: body, into: &output, limit: limit - start)
      guard input.count - end >= 8 else { throw CodecError("the gzip trailer is missing (at byte \(end))") }
      var crc = CRC32()
      crc.update(output, in: start..<output.count)
      guard crc.value == littleEndian(input, end, 4) else {
        throw CodecError("the gzip CRC-32 does not match (at byte \(end))")
      }
      guard UInt32(truncatingIfNeeded: output.count - start) == littleEndian(input, end + 4, 4) else {
        throw CodecError("the gzip length does not match (at byte \(end + 4))")
      }
      position = end + 8
      while position < input.count, input[position] == 0 { position += 1 }
    } while position < input.count
    return output
  }

  /// `input` as one gzip member (no name, no time: the same bytes give the same file).
  public static func compress(_ input: [UInt8]) -> [UInt8] {
    var output: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
    output += Deflate.compress(input)
    var crc = CRC32()
    crc.update(input)
    appendLittleEndian(crc.value, to: &output)
    appendLittleEndian(UInt32(truncatingIfNeeded: input.count), to: &output)
    return output
  }

  /// The offset of the DEFLATE stream of the member whose header starts at `start`.
  private static func headerEnd(_ input: [UInt8], at start: Int) throws(CodecError) -> Int {
    guard input.count - start >= 10, input[start] == 0x1F, input[start + 1] == 0x8B else {
      throw CodecError("no gzip header at byte \(start)")
    }
    guard input[start + 2] == 8 else { throw CodecError("gzip compression method \(input[start + 2]) is not DEFLATE") }
    let flags = input[start + 3]
    guard flags & 0xE0 == 0 else { throw CodecError("reserved gzip header flags are set (at byte \(start + 3))") }
    var position = start + 10
    if flags & 4 != 0 {  // FEXTRA
      guard input.count - position >= 2 else { throw CodecError("the gzip header ends early") }
      let length = Int(littleEndian(input, position, 2))
      guard input.count - position - 2 >= length else { throw CodecError("the gzip header ends early") }
      position += 2 + length
    }
    for flag: UInt8 in [8, 16] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated
      guard let zero = input[position...].firstIndex(of: 0) else { throw CodecError("the gzip header ends early") }
      position = zero + 1
    }
    if flags & 2 != 0 {  // FHCRC
      guard input.count - position >= 2 else { throw CodecError("the gzip header ends early") }
      position += 2
    }
    return position
  }

  private static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt32 {
    var value: UInt32 = 0
    for index in (0..<count).reversed() { value = value << 8 | UInt32(bytes[offset + index]) }
    return value
  }

  private static func appendLittleEndian(_ value: UInt32, to output: inout [UInt8]) {
    for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
  }
}
