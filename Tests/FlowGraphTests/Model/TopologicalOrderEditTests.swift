import Testing

import FlowGraph
import FlowTestSupport

/// Traps-free validity: labels and `nodeAt` agree, every other label is a hole, edges go forward.
private func isValid(_ order: TopologicalOrder, _ graph: TestAdjacency) -> Bool {
  guard order.count == graph.count, order.labelCapacity >= order.count,
    order.labelCapacity <= 4 * order.count + 64,
    order.orderedNodes.count == order.count,
    order.nodeAt.enumerated().allSatisfy({ $1 == TopologicalOrder.hole || order.position[Int($1)] == Int32($0) })
  else { return false }
  return graph.edges.allSatisfy { order.position[Int($0.0)] < order.position[Int($0.1)] }
}

@Suite struct TopologicalOrderEditTests {
  /// Random edits — edges added (some closing cycles), edges removed, nodes appended — on
  /// graphs from 2 to 150 nodes. After every step the order is valid for the current edges; an
  /// edge is refused exactly when brute force finds a path back from its target, and then the
  /// order is unchanged and the returned cycle is a real one through the new edge.
  @Test(arguments: 0..<100)
  func editsAgreeWithBruteForce(seed: Int) {
    var random = SeededRandom(seed: UInt64(seed) &* 104_729 &+ 3)
    let count = Int.random(in: 2...(seed < 75 ? 30 : 150), using: &random)
    var graph = TestAdjacency(count: count)
    var order = TopologicalOrder(validOrder: Array(0..<Int32(count)).shuffled(using: &random))
    // Dense graphs close many cycles; sparse ones make long moves.
    let reach = Int32.random(in: 2...Int32(count), using: &random)
    for step in 0..<(count * 4) {
      let roll = Int.random(in: 0..<20, using: &random)
      if roll == 0 {
        graph.appendNode()
        order.appendNode()
      } else if roll < 6, !graph.edges.isEmpty {
        graph.remove(at: Int.random(in: 0..<graph.edges.count, using: &random))
      } else {
        let source = Int32.random(in: 0..<Int32(graph.count), using: &random)
        let target = Int32.random(in: 0..<Int32(graph.count), using: &random)
        let shortTarget = min(Int32(graph.count) - 1, source + Int32.random(in: 1...reach, using: &random))
        let end = Bool.random(using: &random) ? target : shortTarget
        let closesCycle = graph.reaches(end, source)
        let before = (order.position, order.nodeAt)
        let cycle = order.insertEdge(from: source, to: end, in: graph)
        #expect((cycle != nil) == closesCycle, "seed \(seed) step \(step): \(source) → \(end)")
        if let cycle {
          #expect(
            order.position == before.0 && order.nodeAt == before.1, "seed \(seed): a refused edge changed the order")
          #expect(cycle.first == source && Set(cycle).count == cycle.count)
          if cycle.count > 1 {
            #expect(cycle[1] == end)
            let steps = (1..<cycle.count).map { (cycle[$0], cycle[($0 + 1) % cycle.count]) }
            #expect(steps.allSatisfy { graph.has($0.0, $0.1) }, "seed \(seed): \(cycle) is not a cycle")
          }
        } else {
          graph.add(source, end)
        }
      }
      #expect(isValid(order, graph), "seed \(seed) step \(step): invalid order \(order.nodeAt)")
      order._checkInvariants(edges: graph.edges)
    }
  }

  /// The W6 pattern: a new node with no ancestors wired into an early node of a long graph, then
  /// unwired. Only the new node moves (plus the few neighbours a respread of a small window
  /// relabels) — never the early node's thousands of descendants.
  @Test func aNewNodeWiredIntoAnEarlyNodeMovesOnlyItself() {
    let count = 5_000
    var random = SeededRandom(seed: 42)
    var graph = TestAdjacency(count: count)
    var order = TopologicalOrder(validOrder: Array(0..<Int32(count)))
    for node in 1..<count {
      for _ in 0..<2 {
        let source = Int32.random(in: Int32(max(0, node - 50))..<Int32(node), using: &random)
        graph.add(source, Int32(node))
        #expect(order.insertEdge(from: source, to: Int32(node), in: graph) == nil)
      }
    }
    var relabeled: [Int] = []
    for _ in 0..<400 {
      graph.appendNode()
      order.appendNode()
      let probe = Int32(graph.count - 1)
      let early = Int32.random(in: 0..<100, using: &random)
      let before = order.position
      #expect(order.insertEdge(from: probe, to: early, in: graph) == nil)
      graph.add(probe, early)
      #expect(order.position[Int(probe)] < order.position[Int(early)])
      relabeled.append((0..<count).filter { before[$0] != order.position[$0] }.count)
      graph.remove(at: graph.edges.count - 1)
    }
    #expect(isValid(order, graph))
    // The first insertion into the dense order relabels everything once; after that, moves are
    // local: PK would have moved thousands of descendants every time.
    let later = relabeled.dropFirst()
    #expect(later.max()! < count / 5, "relabeled \(later.max()!) nodes in one insertion")
    #expect(
      later.reduce(0, +) < 20 * later.count, "relabeled \(later.reduce(0, +)) nodes over \(later.count) insertions")
  }

  /// Nodes placed again and again at the same spot (each new node into node 1, and into the
  /// previous new node) use up every gap there: windows respread, then the whole order
  /// relabels; the order stays valid and its labels bounded throughout.
  @Test func placingAtTheSameSpotRelabelsAndStaysValid() {
    var graph = TestAdjacency(count: 3)
    var order = TopologicalOrder(validOrder: [0, 1, 2])
    graph.add(0, 1)
    graph.add(1, 2)
    for (source, target) in graph.edges { #expect(order.insertEdge(from: source, to: target, in: graph) == nil) }
    var relabels = 0
    for round in 0..<3_000 {
      graph.appendNode()
      order.appendNode()
      let node = Int32(graph.count - 1)
      let target: Int32 = round.isMultiple(of: 2) ? 1 : node - 1
      let capacity = order.labelCapacity
      #expect(order.insertEdge(from: node, to: target, in: graph) == nil)
      graph.add(node, target)
      #expect(order.position[Int(node)] < order.position[Int(target)])
      // A full relabel spreads the nodes over twice their number of labels.
      if order.labelCapacity != capacity && order.labelCapacity == 2 * order.count { relabels += 1 }
      if round % 100 == 0 { order._checkInvariants(edges: graph.edges) }
    }
    #expect(isValid(order, graph))
    #expect(order.orderedNodes.first == 0 && order.orderedNodes.last == 2)
    #expect(relabels > 0 && relabels < 20, "\(relabels) full relabels")
  }
}
