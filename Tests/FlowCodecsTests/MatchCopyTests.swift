import FlowTestSupport
import Testing
@testable import FlowCodecs

/// `UnsafeMatchCopy`, the bulk copy of the LZ77 decoders, against the byte-at-a-time copy it
/// replaces: random outputs, distances (1 to all of it, the short periods overlapping most) and
/// lengths (0 to past the output), into arrays with and without room reserved.
@Suite struct MatchCopyTests {
  @Test(arguments: 0..<40) func aMatchAppendsWhatOneByteAtATimeWould(seed: Int) {
    var random = SeededRandom(seed: UInt64(seed))
    var output = (0..<Int(random.next() % 300) + 1).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    var expected = output
    if seed % 2 == 0 { output.reserveCapacity(output.count + 10_000) }
    for _ in 0..<30 {
      let distance = random.next() % 3 == 0 ? Int(random.next() % 8) % output.count + 1 : Int(random.next() % UInt64(output.count)) + 1
      let length = [0, 1, 3, 4, 7, 8, 9, 16, 31, 64, 65, 200, 1_000][Int(random.next() % 13)]
      UnsafeMatchCopy.append(&output, distance: distance, length: length)
      let start = expected.count - distance
      for index in 0..<length { expected.append(expected[start + index]) }
      #expect(output == expected, "distance \(distance), length \(length)")
      if output != expected { return }
    }
  }
}
