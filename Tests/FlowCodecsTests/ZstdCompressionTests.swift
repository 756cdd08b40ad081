import FlowCodecs
import FlowTestSupport
import Testing

/// The Zstandard compressor: seeded random inputs of every kind of redundancy decompress to
/// themselves through our decoder (one frame and several blocks, with and without the checksum),
/// the edges (empty, one byte, runs, noise, more than a block) round-trip, redundant text
/// shrinks, and a corrupted checksum is caught.
@Suite struct ZstdCompressionTests {
  @Test(arguments: 0..<40) func randomInputsRoundTrip(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(9_000 + seed))
    let input = CodecPropertyTests.sample(&random)
    let frame = Zstd.compress(input, checksum: seed % 2 == 0)
    #expect(try Zstd.decompress(frame[...], limit: input.count) == input)
  }

  @Test func edgesRoundTrip() throws {
    var random = SeededRandom(seed: 41)
    let noise = (0..<300_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    let text = (0..<9_000).flatMap { Array("\($0 % 311),\(["alpha", "beta", "Zürich", ""][$0 % 4]),\($0 * 7)\n".utf8) }
    let cases: [[UInt8]] = [
      [], [7], [1, 2], Array(repeating: 0, count: 13), Array(repeating: 9, count: 300_000), noise, text,
      noise.prefix(70) + Array(repeating: 5, count: 1_000) + noise.prefix(70), Array(0...255),
      Array(noise.prefix(131_072)), Array(noise.prefix(131_073)), text + noise.prefix(200_000) + text
    ]
    for input in cases {
      let frame = Zstd.compress(input)
      #expect(try Zstd.decompress(frame[...], limit: input.count) == input, "\(input.count) bytes")
      #expect(
        frame.count <= input.count + 3 * (input.count / 131_072 + 1) + 16,
        "\(input.count) bytes grow by at most a block header per block")
    }
  }

  @Test func redundantTextShrinks() throws {
    let line = Array("2013,1,1,517,515,2,830,819,11,UA,1545,N14228,EWR,IAH,227,1400\n".utf8)
    let input = (0..<2_000).flatMap { _ in line }
    #expect(Zstd.compress(input).count * 50 < input.count)
    // Lines that differ in their numbers: the matcher and the sequences coding still pay.
    let rows = (0..<20_000).flatMap {
      Array("\($0),\($0 % 13 == 0 ? "AA" : "UA"),\(1_000 + $0 % 97),N\($0 % 500)\n".utf8)
    }
    let frame = Zstd.compress(rows)
    #expect(frame.count * 2 < rows.count, "\(frame.count) of \(rows.count) bytes (literals are raw)")
    #expect(try Zstd.decompress(frame[...], limit: rows.count) == rows)
  }

  @Test func aCorruptedChecksumIsCaught() throws {
    let input = Array("a checksum covers the frame's content, not its blocks".utf8)
    var frame = Zstd.compress(input)
    #expect(try Zstd.decompress(frame[...], limit: 100) == input)
    frame[frame.count - 1] ^= 0x40
    #expect(throws: CodecError("a Zstandard frame's content does not match its checksum (at byte \(frame.count - 4))"))
    {
      try Zstd.decompress(frame[...], limit: 100)
    }
  }

  @Test func framesConcatenate() throws {
    let first = Array(repeating: UInt8(ascii: "x"), count: 500)
    let second = Array("tail".utf8)
    #expect(
      try Zstd.decompress((Zstd.compress(first) + Zstd.compress(second, checksum: false))[...], limit: 504) == first
        + second)
  }
}
