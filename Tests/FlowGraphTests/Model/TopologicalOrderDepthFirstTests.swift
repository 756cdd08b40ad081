@testable import FlowGraph
import FlowTestSupport
import Testing

/// `TopologicalOrder.sorting(_:ready: .depthFirst)` (the order `flow export --sql` writes its
/// CTEs in) against a reference that scans for the most recently readied node, on random graphs.
@Suite struct TopologicalOrderDepthFirstTests {
  /// The reference: repeatedly place the ready node made ready last (nodes without
  /// predecessors count as readied in reverse index order, before any other), by a scan.
  static func reference(_ lists: [[Int32]]) -> [Int32] {
    let n = lists.count
    var waiting = [Int](repeating: 0, count: n)
    for targets in lists { for target in targets { waiting[Int(target)] += 1 } }
    var readiedAt: [Int?] = (0..<n).map { waiting[$0] == 0 ? -$0 : nil }
    var placed = [Bool](repeating: false, count: n)
    var clock = 0
    var order: [Int32] = []
    while let next = (0..<n).filter({ !placed[$0] && readiedAt[$0] != nil }).max(by: { readiedAt[$0]! < readiedAt[$1]! }
    ) {
      placed[next] = true
      order.append(Int32(next))
      for target in lists[next] {
        waiting[Int(target)] -= 1
        if waiting[Int(target)] == 0 {
          clock += 1
          readiedAt[Int(target)] = clock
        }
      }
    }
    return order
  }

  @Test(arguments: 0..<200)
  func theDepthFirstOrderIsTheReferences(seed: Int) {
    var random = SeededRandom(seed: UInt64(seed))
    let n = Int.random(in: 1...20, using: &random)
    var edges: [(Int32, Int32)] = []
    for _ in 0..<Int.random(in: 0...(2 * n), using: &random) {
      let a = Int32.random(in: 0..<Int32(n), using: &random), b = Int32.random(in: 0..<Int32(n), using: &random)
      // Mostly acyclic; every fifth graph may hold cycles (their nodes are left out).
      if seed % 5 == 4 || a < b { edges.append((a, b)) } else if a > b { edges.append((b, a)) }
    }
    var lists = [[Int32]](repeating: [], count: n)
    for (a, b) in edges { lists[Int(a)].append(b) }
    let successors = SuccessorLists(nodeCount: n, edges: edges) { ($0.0, $0.1) }
    let depthFirst = TopologicalOrder.sorting(successors, ready: .depthFirst)
    let queued = TopologicalOrder.sorting(successors)
    #expect(depthFirst.order == Self.reference(lists))
    // The same nodes are placed (and left out) whichever ready node goes next.
    #expect(Set(depthFirst.order) == Set(queued.order))
    #expect(depthFirst.unplaced == queued.unplaced)
  }

  @Test func aChainStaysTogether() {
    // 0 → 1 → 2 and 0 → 3: depth-first places 3 before 1 (readied last), then 1 → 2 in a row.
    let edges: [(Int32, Int32)] = [(0, 1), (1, 2), (0, 3)]
    let successors = SuccessorLists(nodeCount: 4, edges: edges) { ($0.0, $0.1) }
    #expect(TopologicalOrder.sorting(successors, ready: .depthFirst).order == [0, 3, 1, 2])
    #expect(TopologicalOrder.sorting(successors).order == [0, 1, 3, 2])
  }
}
