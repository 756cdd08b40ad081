import FlowCodecs
import FlowTestSupport
import Testing

/// The Snappy and LZ4 compressors: random data of every kind of redundancy (`CodecPropertyTests`'
/// sampler) decompresses to itself through the decoders, redundant data shrinks, and the edges
/// (empty, short, long runs, long literals) round-trip.
@Suite struct CompressorRoundTripTests {
  @Test(arguments: 0..<40) func snappyAndLZ4RoundTrip(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(5_000 + seed))
    let input = CodecPropertyTests.sample(&random)
    #expect(try Snappy.decompress(Snappy.compress(input), limit: input.count) == input)
    #expect(try LZ4.decompressBlock(LZ4.compressBlock(input)[...], limit: input.count) == input)
  }

  @Test func edgesRoundTrip() throws {
    var random = SeededRandom(seed: 7)
    let noise = (0..<100_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    let cases: [[UInt8]] = [
      [], [1], [1, 2, 3], Array(repeating: 0, count: 13), Array(repeating: 9, count: 100_000), noise,
      noise.prefix(70) + Array(repeating: 5, count: 1_000) + noise.prefix(70), Array(0...255)
    ]
    for input in cases {
      #expect(try Snappy.decompress(Snappy.compress(input), limit: input.count) == input)
      #expect(try LZ4.decompressBlock(LZ4.compressBlock(input)[...], limit: input.count) == input)
    }
    // Incompressible data grows by at most a few bytes per literal run.
    #expect(Snappy.compress(noise).count < noise.count + noise.count / 50)
    #expect(LZ4.compressBlock(noise).count < noise.count + noise.count / 200)
  }

  @Test func redundantDataShrinks() {
    let line = Array("2013,1,1,517,515,2,830,819,11,UA,1545,N14228,EWR,IAH,227,1400\n".utf8)
    let input = (0..<2_000).flatMap { _ in line }
    #expect(Snappy.compress(input).count * 10 < input.count)
    #expect(LZ4.compressBlock(input).count * 10 < input.count)
  }
}
