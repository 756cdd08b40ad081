import FlowGraph
import FlowTestSupport
import Testing

/// `ItemValues` against a `[Int: Int]` over random sets (in order, out of order, replacing)
/// and removals.
@Suite struct ItemValuesTests {
  @Test(arguments: 0..<30)
  func matchesADictionary(seed: UInt64) {
    var random = SeededRandom(seed: seed &+ 7)
    var values = ItemValues<Int>()
    var reference: [Int: Int] = [:]
    var next = 0
    for step in 0..<500 {
      switch Int.random(in: 0..<4, using: &random) {
      case 0:  // the store's pattern: the next item
        values[next] = step
        reference[next] = step
        next += Int.random(in: 1...3, using: &random)
      case 1:
        let index = Int.random(in: 0..<(next + 5), using: &random)
        values[index] = step
        reference[index] = step
      case 2:
        let index = Int.random(in: 0..<(next + 5), using: &random)
        values[index] = nil
        reference[index] = nil
      default: break
      }
      for index in 0..<(next + 5) {
        #expect(values[index] == reference[index], "seed \(seed), step \(step), index \(index)")
      }
      #expect(values.isEmpty == reference.isEmpty)
    }
  }
}
