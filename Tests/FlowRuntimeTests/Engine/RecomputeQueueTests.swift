@testable import FlowRuntime
import FlowTestSupport

import Testing

/// `RecomputeQueue` against a sorted set: whatever mix of heap pushes, bitset pushes and bulk
/// fills, it pops every queued position once, smallest first.
@Suite struct RecomputeQueueTests {
  @Test(arguments: 0..<200)
  func popsWhatWasQueuedInIncreasingOrder(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let capacity = 1 + Int(random.next() % 700)
    var queue = RecomputeQueue(capacity: capacity, heapLimit: 1 + Int(random.next() % 40))
    var reference = Set<Int32>()
    for _ in 0..<4 {
      switch random.next() % 3 {
      case 0:
        // Bulk: every label that holds a node (holes left out).
        let hole: Int32 = -1
        let nodeAt = (0..<capacity).map { _ in random.next() % 4 == 0 ? hole : Int32(random.next() % 1000) }
        queue.pushAll(labelsOf: nodeAt, hole: hole)
        reference = Set(nodeAt.indices.filter { nodeAt[$0] != hole }.map(Int32.init))
      case 1:
        queue.beginBitset()
        for _ in 0..<Int(random.next() % 300) {
          let position = Int32(random.next() % UInt64(capacity))
          queue.pushBit(position)
          reference.insert(position)
        }
      default:
        for _ in 0..<Int(random.next() % 300) {
          let position = Int32(random.next() % UInt64(capacity))
          guard reference.insert(position).inserted else { continue }
          queue.push(position)
        }
      }
      // Pop some, then (while popping in order) push positions above the last popped one, as a
      // serial pass does.
      var last: Int32 = -1
      for _ in 0..<Int(random.next() % 200) {
        guard let position = queue.popMin() else { break }
        #expect(
          position == reference.min(),
          "seed \(seed): popped \(position), expected \(String(describing: reference.min()))")
        reference.remove(position)
        last = position
        let room = capacity - Int(last) - 1
        if random.next() % 3 == 0, room > 0 {
          let above = last + 1 + Int32(random.next() % UInt64(room))
          if reference.insert(above).inserted { queue.push(above) }
        }
      }
      var rest: [Int32] = []
      while let position = queue.popMin() { rest.append(position) }
      #expect(rest == reference.sorted(), "seed \(seed): the rest of the queue differs")
      #expect(queue.isEmpty)
      reference.removeAll()
    }
  }
}
