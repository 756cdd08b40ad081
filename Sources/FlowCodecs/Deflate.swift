/// DEFLATE encoding (RFC 1951): LZ77 matches found through hash chains over a 32 KiB window,
/// coded with the fixed Huffman code; data that would not shrink is written as stored blocks.
///
/// Invariants: every match lies inside the window (distance 1…32,768) and inside the input
/// (length 3…258); `Inflate` decodes the output to exactly the input (the round-trip property
/// tests check this, and Python's `zlib` and `gzip` read it).
public enum Deflate {
  /// The compressed form of `input`, as one stream.
  public static func compress(_ input: [UInt8]) -> [UInt8] {
    var writer = DeflateBits()
    writer.output.reserveCapacity(input.count / 2 + 64)
    writer.write(1, 1)  // the final block
    writer.write(1, 2)  // fixed Huffman codes
    var matcher = DeflateMatcher(input)
    var position = 0
    while position < input.count {
      if let match = matcher.longestMatch(at: position) {
        writeMatch(length: match.length, distance: match.distance, to: &writer)
        for offset in 0..<match.length { matcher.insert(position + offset) }
        position += match.length
      } else {
        let code = fixedLiteralCodes[Int(input[position])]
        writer.write(code.bits, code.length)
        matcher.insert(position)
        position += 1
      }
    }
    let end = fixedLiteralCodes[256]
    writer.write(end.bits, end.length)
    writer.flush()
    // Incompressible data: stored blocks cost 5 bytes per 65,535.
    let storedSize = input.count + 5 * max(1, (input.count + 65_534) / 65_535)
    return writer.output.count <= storedSize ? writer.output : stored(input)
  }

  /// `input` as stored (uncompressed) blocks.
  static func stored(_ input: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(input.count + 5 * (input.count / 65_535 + 1))
    var start = 0
    repeat {
      let end = min(input.count, start + 65_535)
      let length = end - start
      output.append(end == input.count ? 1 : 0)  // BFINAL, BTYPE 00, aligned
      output += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
      output += input[start..<end]
      start = end
    } while start < input.count
    return output
  }

  private static func writeMatch(length: Int, distance: Int, to writer: inout DeflateBits) {
    let lengthSymbol = lengthSymbols[length]
    let code = fixedLiteralCodes[257 + Int(lengthSymbol)]
    writer.write(code.bits, code.length)
    let extra = DeflateTables.lengthExtra[Int(lengthSymbol)]
    if extra > 0 { writer.write(UInt64(length - DeflateTables.lengthBase[Int(lengthSymbol)]), extra) }
    let distanceSymbol = distanceSymbolOf(distance)
    writer.write(reversed(UInt64(distanceSymbol), 5), 5)
    let distanceExtraBits = DeflateTables.distanceExtra[distanceSymbol]
    if distanceExtraBits > 0 {
      writer.write(UInt64(distance - DeflateTables.distanceBase[distanceSymbol]), distanceExtraBits)
    }
  }

  /// The length symbol (0…28, before adding 257) of each match length 0…258.
  private static let lengthSymbols: [UInt8] = (0...258).map { length in
    UInt8(DeflateTables.lengthBase.lastIndex { $0 <= max(3, length) } ?? 0)
  }

  private static func distanceSymbolOf(_ distance: Int) -> Int {
    var low = 0
    var high = DeflateTables.distanceBase.count - 1
    while low < high {  // the last base ≤ distance
      let middle = (low + high + 1) / 2
      if DeflateTables.distanceBase[middle] <= distance { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The fixed literal/length code, bit-reversed for LSB-first writing.
  private static let fixedLiteralCodes: [(bits: UInt64, length: Int)] = (0..<288).map { symbol in
    switch symbol {
    case 0..<144: (reversed(UInt64(0x30 + symbol), 8), 8)
    case 144..<256: (reversed(UInt64(0x190 + symbol - 144), 9), 9)
    case 256..<280: (reversed(UInt64(symbol - 256), 7), 7)
    default: (reversed(UInt64(0xC0 + symbol - 280), 8), 8)
    }
  }

  static func reversed(_ code: UInt64, _ length: Int) -> UInt64 {
    var result: UInt64 = 0
    for bit in 0..<length where code & (1 << UInt64(bit)) != 0 { result |= 1 << UInt64(length - 1 - bit) }
    return result
  }
}
