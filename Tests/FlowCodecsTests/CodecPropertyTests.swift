import FlowCodecs
import FlowTestSupport
import Testing

/// Round trips over random data with every kind of redundancy, and mutated streams that must
/// throw or decode within the limit, never trap.
@Suite struct CodecPropertyTests {
  /// Random bytes from a small alphabet with repeated runs and copies from far back.
  static func sample(_ random: inout SeededRandom) -> [UInt8] {
    let length = Int(random.next() % 70_000)
    let alphabet = Int(random.next() % 255) + 1
    var bytes: [UInt8] = []
    bytes.reserveCapacity(length)
    while bytes.count < length {
      switch random.next() % 4 {
      case 0 where bytes.count > 3:
        let distance = Int(random.next() % UInt64(min(bytes.count, 40_000))) + 1
        let run = Int(random.next() % 300) + 1
        for _ in 0..<run { bytes.append(bytes[bytes.count - distance]) }
      case 1:
        bytes += [UInt8](repeating: UInt8(random.next() % UInt64(alphabet)), count: Int(random.next() % 40))
      default:
        for _ in 0..<Int(random.next() % 50) { bytes.append(UInt8(random.next() % UInt64(alphabet))) }
      }
    }
    return Array(bytes.prefix(length))
  }

  @Test(arguments: 0..<40) func deflateRoundTrips(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed))
    let input = Self.sample(&random)
    let compressed = Deflate.compress(input)
    let (output, end) = try Inflate.decompress(compressed, limit: input.count)
    #expect(output == input)
    #expect(end == compressed.count)
    let gzipped = Gzip.compress(input)
    #expect(try Gzip.decompress(gzipped + gzipped, limit: 2 * input.count) == input + input)
  }

  @Test func redundantDataShrinks() {
    let line = Array("2013,1,1,517,515,2,830,819,11,UA,1545,N14228,EWR,IAH,227,1400\n".utf8)
    let input = (0..<2_000).flatMap { _ in line }
    #expect(Deflate.compress(input).count * 10 < input.count)
  }

  @Test(arguments: 0..<8) func mutatedStreamsThrowOrStayWithinTheLimit(seed: Int) {
    var random = SeededRandom(seed: UInt64(1_000 + seed))
    let input = Self.sample(&random)
    let stream = Gzip.compress(input)
    for _ in 0..<300 {
      var mutated = stream
      for _ in 0..<(1 + Int(random.next() % 4)) where !mutated.isEmpty {
        let index = Int(random.next() % UInt64(mutated.count))
        switch random.next() % 3 {
        case 0: mutated[index] ^= UInt8(1 << (random.next() % 8))
        case 1: mutated[index] = UInt8(random.next() % 256)
        default: mutated.removeSubrange(index...)
        }
      }
      if let output = try? Gzip.decompress(mutated, limit: 100_000) { #expect(output.count <= 100_000) }
    }
  }
}
