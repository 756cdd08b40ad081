/// DEFLATE decoding (RFC 1951): stored, fixed-Huffman and dynamic-Huffman blocks.
///
/// Every length, distance and code is checked: a truncated or corrupt stream throws a
/// `CodecError` saying what is wrong, never traps, and the output never grows past `limit`
/// bytes (a "zip bomb" stops there).
public enum Inflate {
  /// Decodes the DEFLATE stream that starts at `input[start]`.
  ///
  /// - Returns: the decoded bytes, and the offset of the first byte after the stream.
  /// - Throws: `CodecError` for a corrupt or truncated stream, or output beyond `limit`.
  public static func decompress(_ input: [UInt8], from start: Int = 0, limit: Int) throws(CodecError)
    -> (output: [UInt8], end: Int)
  {
    var output: [UInt8] = []
    output.reserveCapacity(min(limit, max(1_024, input.count * 3)))
    let end = try decompress(input, from: start, into: &output, limit: limit)
    return (output, end)
  }

  /// `decompress(_:from:limit:)` appending to `output`; back-references may reach only the
  /// bytes this stream wrote. Returns the offset after the stream.
  public static func decompress(_ input: [UInt8], from start: Int, into output: inout [UInt8], limit: Int)
    throws(CodecError) -> Int
  {
    var bits = InflateBits(input, at: start)
    let base = output.count
    var isLast = false
    while !isLast {
      isLast = try bits.take(1) == 1
      switch try bits.take(2) {
      case 0:
        bits.alignToByte()
        let length = try bits.take(16)
        let complement = try bits.take(16)
        guard length == ~complement & 0xFFFF else {
          throw CodecError("a stored block whose length check fails (near byte \(bits.byteOffset))")
        }
        guard output.count - base + length <= limit else { throw tooLong(limit) }
        try bits.copyBytes(length, into: &output)
      case 1:
        try inflateBlock(
          &bits, literals: fixedLiterals, distances: fixedDistances, into: &output, base: base, limit: limit)
      case 2:
        let (literals, distances) = try dynamicCodes(&bits)
        try inflateBlock(&bits, literals: literals, distances: distances, into: &output, base: base, limit: limit)
      default:
        throw CodecError("a block of the reserved type 3 (near byte \(bits.byteOffset))")
      }
    }
    bits.alignToByte()
    return bits.byteOffset
  }

  static func tooLong(_ limit: Int) -> CodecError { CodecError("the data decompresses to more than \(limit) bytes") }

  private static let fixedLiterals = try! InflateHuffman(
    lengths: ArraySlice(
      [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112) + [Int](repeating: 7, count: 24)
        + [Int](repeating: 8, count: 8)), what: "fixed literal")
  /// 32 codes of 5 bits (a complete code); 30 and 31 are refused when decoded.
  private static let fixedDistances = try! InflateHuffman(
    lengths: ArraySlice([Int](repeating: 5, count: 32)), what: "fixed distance")

  /// The order in which a dynamic block lists its code-length code's lengths.
  private static let lengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

  /// Reads a dynamic block's header: its literal/length and distance codes.
  private static func dynamicCodes(_ bits: inout InflateBits) throws(CodecError) -> (InflateHuffman, InflateHuffman) {
    let literalCount = try bits.take(5) + 257
    let distanceCount = try bits.take(5) + 1
    let lengthCodeCount = try bits.take(4) + 4
    guard literalCount <= 286, distanceCount <= 30 else {
      throw CodecError("a dynamic block with too many codes (near byte \(bits.byteOffset))")
    }
    var lengthLengths = [Int](repeating: 0, count: 19)
    for index in 0..<lengthCodeCount { lengthLengths[lengthOrder[index]] = try bits.take(3) }
    let lengthCode = try InflateHuffman(lengths: lengthLengths[...], what: "code-length", allowsIncomplete: false)
    var lengths = [Int](repeating: 0, count: literalCount + distanceCount)
    var index = 0
    while index < lengths.count {
      let symbol = try lengthCode.decode(&bits)
      if symbol < 16 {
        lengths[index] = symbol
        index += 1
        continue
      }
      var value = 0
      let repeats: Int
      switch symbol {
      case 16:
        guard index > 0 else {
          throw CodecError("a repeated code length with none before it (near byte \(bits.byteOffset))")
        }
        value = lengths[index - 1]
        repeats = 3 + (try bits.take(2))
      case 17: repeats = 3 + (try bits.take(3))
      default: repeats = 11 + (try bits.take(7))
      }
      guard index + repeats <= lengths.count else {
        throw CodecError("code lengths that run past the block's codes (near byte \(bits.byteOffset))")
      }
      for offset in index..<(index + repeats) { lengths[offset] = value }
      index += repeats
    }
    guard lengths[256] > 0 else {
      throw CodecError("a dynamic block with no end-of-block code (near byte \(bits.byteOffset))")
    }
    return (
      try InflateHuffman(lengths: lengths[..<literalCount], what: "literal/length"),
      try InflateHuffman(lengths: lengths[literalCount...], what: "distance")
    )
  }

  /// Decodes one Huffman-coded block's symbols up to its end-of-block code.
  private static func inflateBlock(
    _ bits: inout InflateBits, literals: InflateHuffman, distances: InflateHuffman,
    into output: inout [UInt8], base: Int, limit: Int
  ) throws(CodecError) {
    while true {
      let symbol = try literals.decode(&bits)
      if symbol < 256 {
        guard output.count - base < limit else { throw tooLong(limit) }
        output.append(UInt8(symbol))
        continue
      }
      if symbol == 256 { return }
      let lengthIndex = symbol - 257
      guard lengthIndex < DeflateTables.lengthBase.count else {
        throw CodecError("an invalid length code \(symbol) (near byte \(bits.byteOffset))")
      }
      let length = DeflateTables.lengthBase[lengthIndex] + (try bits.take(DeflateTables.lengthExtra[lengthIndex]))
      let distanceIndex = try distances.decode(&bits)
      guard distanceIndex < DeflateTables.distanceBase.count else {
        throw CodecError("an invalid distance code \(distanceIndex) (near byte \(bits.byteOffset))")
      }
      let distance =
        DeflateTables.distanceBase[distanceIndex] + (try bits.take(DeflateTables.distanceExtra[distanceIndex]))
      guard distance <= output.count - base else {
        throw CodecError("a distance of \(distance) bytes before the data's start (near byte \(bits.byteOffset))")
      }
      guard output.count - base + length <= limit else { throw tooLong(limit) }
      // Byte by byte: the copy may overlap what it appends (a run), and a slice of `output`
      // would make the append copy the whole buffer.
      let from = output.count - distance
      for offset in 0..<length { output.append(output[from + offset]) }
    }
  }
}
