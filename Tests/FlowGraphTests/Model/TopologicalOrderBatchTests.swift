@testable import FlowGraph
import FlowTestSupport
import Testing

/// `TopologicalOrder.sorting` and `cycles(in:among:)`, the batch sort the validator and the
/// layered layout share, against brute-force reachability on random graphs, cyclic or not.
@Suite struct TopologicalOrderBatchTests {
  /// Whether `to` is reachable from `from` by one or more edges (a breadth-first search).
  static func reaches(_ successors: [[Int32]], from: Int32, to: Int32) -> Bool {
    var seen = Set<Int32>()
    var queue = successors[Int(from)]
    while let node = queue.popLast() {
      if node == to { return true }
      if seen.insert(node).inserted { queue += successors[Int(node)] }
    }
    return false
  }

  @Test(arguments: 0..<120)
  func orderAndCyclesAgreeWithReachability(seed: Int) {
    var random = SeededRandom(seed: UInt64(seed))
    let n = Int.random(in: 1...24, using: &random)
    let cyclic = seed % 2 == 1
    var edges: [(Int32, Int32)] = []
    for _ in 0..<Int.random(in: 0...(2 * n), using: &random) {
      let a = Int32.random(in: 0..<Int32(n), using: &random), b = Int32.random(in: 0..<Int32(n), using: &random)
      if cyclic || a < b { edges.append((a, b)) } else if a > b { edges.append((b, a)) }
    }
    var lists = [[Int32]](repeating: [], count: n)
    for (a, b) in edges { lists[Int(a)].append(b) }
    let successors = SuccessorLists(nodeCount: n, edges: edges) { ($0.0, $0.1) }
    let sorted = TopologicalOrder.sorting(successors)
    // A node is left out exactly when a cycle reaches it (it is on one or downstream of one).
    let onCycle = (0..<Int32(n)).map { Self.reaches(lists, from: $0, to: $0) }
    let leftOut = (0..<Int32(n)).map { node in
      (0..<Int32(n)).contains { onCycle[Int($0)] && ($0 == node || Self.reaches(lists, from: $0, to: node)) }
    }
    #expect(sorted.isComplete == !leftOut.contains(true))
    #expect(Set(sorted.order) == Set((0..<Int32(n)).filter { !leftOut[Int($0)] }))
    #expect(sorted.order.count == Set(sorted.order).count)
    var place = [Int](repeating: -1, count: n)
    for (index, node) in sorted.order.enumerated() { place[Int(node)] = index }
    for (a, b) in edges where place[Int(a)] >= 0 && place[Int(b)] >= 0 { #expect(place[Int(a)] < place[Int(b)]) }
    guard let unplaced = sorted.unplaced else { return }
    let cycles = TopologicalOrder.cycles(in: successors, among: unplaced)
    #expect(!cycles.isEmpty)
    var covered = Set<Int32>()
    for cycle in cycles {
      // Each is a real cycle: consecutive nodes joined by edges, and back to the start.
      for (index, node) in cycle.enumerated() {
        #expect(lists[Int(node)].contains(cycle[(index + 1) % cycle.count]))
      }
      #expect(Set(cycle).count == cycle.count)
      covered.formUnion(cycle)
    }
    // Every node on a cycle shares a strongly connected component with a reported one.
    for node in 0..<Int32(n) where onCycle[Int(node)] {
      #expect(
        covered.contains {
          $0 == node || (Self.reaches(lists, from: $0, to: node) && Self.reaches(lists, from: node, to: $0))
        })
    }
  }
}
