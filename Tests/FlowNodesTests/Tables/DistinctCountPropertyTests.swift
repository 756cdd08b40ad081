import FlowTestSupport
@testable import FlowRuntime
import Testing
@testable import FlowNodes

/// `countDistinct`'s counting sort and marks against a set of (group, value) pairs, over random
/// groups (one big group, many small ones, groups with only nulls) and value codes.
@Suite struct DistinctCountPropertyTests {
  @Test(arguments: 0..<300) func distinctCountsMatchASetOfPairs(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let rows = Int(random.next() % 400)
    let groupCount = 1 + Int(random.next() % 40)
    let cardinality = 1 + Int(random.next() % 30)
    let bigGroup = random.next() % 2 == 0
    let groups = (0..<rows).map { _ in
      Int32(bigGroup && random.next() % 2 == 0 ? 0 : random.next() % UInt64(groupCount))
    }
    let codes = (0..<rows).map { _ in Int32(random.next() % UInt64(cardinality)) }
    let valid = (0..<rows).map { _ in random.next() % 5 != 0 }
    let column = Aggregate.distinctCounts(
      groups: groups, groupCount: groupCount, codes: codes, cardinality: cardinality,
      validity: Validity(valid))
    var pairs = Set<[Int32]>()
    for row in 0..<rows where valid[row] { pairs.insert([groups[row], codes[row]]) }
    for group in 0..<groupCount {
      let count = pairs.filter { $0[0] == Int32(group) }.count
      #expect(column[group] == (count == 0 ? .null : .integer(Int64(count))), "seed \(seed) group \(group)")
    }
  }
}
