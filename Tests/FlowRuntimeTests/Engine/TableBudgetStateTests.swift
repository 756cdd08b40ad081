import FlowTestSupport
import Testing
@testable import FlowRuntime

/// `TableBudget`, the pure part of the table memory budget: its use order and evictions
/// against a plain reference (an array, least recently used first), over random operations.
@Suite struct TableBudgetStateTests {
  @Test func evictsLeastRecentlyUsedFirstAndSkipsWhatMayNotBeDropped() {
    var budget = TableBudget(limit: 70, nodeCount: 5)
    budget.use(0, bytes: 40)
    budget.use(1, bytes: 40)
    budget.use(2, bytes: 40)
    budget.use(0, bytes: 40)
    #expect(budget.useOrder == [1, 2, 0] && budget.heldBytes == 120)
    // 1 may not be dropped: it is untracked, and 2 goes.
    let evicted = budget.evictions(canDrop: { $0 != 1 }, evaluationCount: { _ in 7 })
    #expect(evicted == [2] && budget.useOrder == [0] && budget.heldBytes == 40)
    #expect(budget.isDropped(2, evaluationCount: 7) && !budget.isDropped(2, evaluationCount: 8))
    #expect(budget.evictionCount == 1 && budget.lastEvicted == [2] && budget.peakHeldBytes == 40)
    budget.recomputed(2, bytes: 30)
    #expect(!budget.dropped[2] && budget.useOrder == [0, 2] && budget.recomputationCount == 1)
    budget.beginPass()
    #expect(budget.lastEvicted.isEmpty && budget.lastRecomputed.isEmpty)
    budget.use(3, bytes: 0)
    #expect(budget.useOrder == [0, 2])
    budget._checkInvariants()
  }

  @Test(arguments: 0..<100)
  func matchesAnArrayReference(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let count = Int.random(in: 1...12, using: &random)
    let limit = Int.random(in: 0...200, using: &random)
    var budget = TableBudget(limit: limit, nodeCount: count)
    var order: [Int32] = [], sizes: [Int32: Int] = [:], dropped: Set<Int32> = []
    for _ in 0..<60 {
      let node = Int32.random(in: 0..<Int32(count), using: &random)
      switch Int.random(in: 0..<4, using: &random) {
      case 0, 1:
        let bytes = Int.random(in: 0...60, using: &random)
        budget.use(node, bytes: bytes)
        order.removeAll { $0 == node }
        dropped.remove(node)
        sizes[node] = nil
        if bytes > 0 {
          order.append(node)
          sizes[node] = bytes
        }
      case 2:
        budget.untrack(node)
        order.removeAll { $0 == node }
        sizes[node] = nil
      default:
        let pinned = Int32.random(in: 0..<Int32(count), using: &random)
        let evicted = budget.evictions(canDrop: { $0 != pinned }, evaluationCount: { _ in 0 })
        var expected: [Int32] = []
        while order.reduce(0, { $0 + sizes[$1]! }) > limit, let first = order.first {
          order.removeFirst()
          sizes[first] = nil
          if first != pinned {
            expected.append(first)
            dropped.insert(first)
          }
        }
        #expect(evicted == expected, "seed \(seed)")
      }
      #expect(budget.useOrder == order, "seed \(seed)")
      #expect(budget.heldBytes == order.reduce(0) { $0 + sizes[$1]! }, "seed \(seed)")
      #expect(budget.droppedNodes == dropped, "seed \(seed)")
      budget._checkInvariants()
    }
  }
}
