import Testing

import FlowGraph
import FlowTestSupport

/// An order over `count` nodes built with `appendNode()`.
private func identityOrder(count: Int) -> TopologicalOrder {
  var order = TopologicalOrder()
  for _ in 0..<count { order.appendNode() }
  return order
}

/// Whether `position` and `nodeAt` are inverse (every node holds one label, every other label is
/// a hole) and every edge goes forward.
private func isValid(_ order: TopologicalOrder, _ graph: TestAdjacency) -> Bool {
  guard order.nodeAt.count == order.labelCapacity, order.labelCapacity >= order.count,
    order.orderedNodes.count == order.count,
    order.nodeAt.enumerated().allSatisfy({ $1 == TopologicalOrder.hole || order.position[Int($1)] == Int32($0) })
  else { return false }
  return graph.edges.allSatisfy { order.position[Int($0.0)] < order.position[Int($0.1)] }
}

@Suite struct TopologicalOrderTests {
  @Test func appendedNodesArePlacedLast() {
    var order = identityOrder(count: 3)
    #expect(order.count == 3)
    #expect(order.position == [0, 1, 2] && order.nodeAt == [0, 1, 2])
    order.appendNode()
    #expect(order.position == [0, 1, 2, 3] && order.nodeAt == [0, 1, 2, 3])
  }

  @Test func aValidOrderIsTakenAsGiven() {
    let order = TopologicalOrder(validOrder: [2, 0, 3, 1])
    #expect(order.nodeAt == [2, 0, 3, 1])
    #expect(order.position == [1, 3, 0, 2])
  }

  @Test func aForwardEdgeChangesNothing() {
    var order = identityOrder(count: 4)
    var graph = TestAdjacency(count: 4)
    graph.add(1, 3)
    #expect(order.insertEdge(from: 1, to: 3, in: graph) == nil)
    #expect(order.nodeAt == [0, 1, 2, 3])
  }

  @Test func aBackwardEdgeMovesTheForwardSideWhenItIsSmaller() {
    // 0 1 2 3 4, edge 3 → 4; inserting 4 → 1: the forward side {1} is smaller than the backward
    // side {3, 4}, so 1 alone moves, to just after 4; the other nodes keep their labels.
    var order = identityOrder(count: 5)
    var graph = TestAdjacency(count: 5)
    graph.add(3, 4)
    #expect(order.insertEdge(from: 3, to: 4, in: graph) == nil)
    #expect(order.insertEdge(from: 4, to: 1, in: graph) == nil)
    graph.add(4, 1)
    #expect(isValid(order, graph))
    #expect(order.orderedNodes == [0, 2, 3, 4, 1])
    #expect([0, 2, 3, 4].map { order.position[$0] } == [0, 2, 3, 4])
  }

  @Test func aBackwardEdgeMovesTheBackwardSideWhenItIsSmaller() {
    // 0 1 2 3 4, chain 1 → 2 → 3; inserting 4 → 1: the backward side {4} is smaller than the
    // forward side {1, 2, 3}, so 4 alone moves, to just before 1.
    var order = identityOrder(count: 5)
    var graph = TestAdjacency(count: 5)
    for (source, target) in [(Int32(1), Int32(2)), (2, 3)] {
      graph.add(source, target)
      #expect(order.insertEdge(from: source, to: target, in: graph) == nil)
    }
    #expect(order.insertEdge(from: 4, to: 1, in: graph) == nil)
    graph.add(4, 1)
    #expect(isValid(order, graph))
    #expect(order.orderedNodes == [0, 4, 1, 2, 3])
    order._checkInvariants(edges: graph.edges)
  }

  @Test func aSelfLoopIsACycleOfOneNode() {
    var order = identityOrder(count: 2)
    #expect(order.insertEdge(from: 1, to: 1, in: TestAdjacency(count: 2)) == [1])
    #expect(order.nodeAt == [0, 1])
  }

  @Test func anEdgeClosingACycleReturnsItFromTheSourceAndChangesNothing() {
    // 0 → 1 → 2 → 3; inserting 3 → 0 closes 3 → 0 → 1 → 2 → 3.
    var order = identityOrder(count: 4)
    var graph = TestAdjacency(count: 4)
    for node in Int32(0)..<3 {
      graph.add(node, node + 1)
      #expect(order.insertEdge(from: node, to: node + 1, in: graph) == nil)
    }
    #expect(order.insertEdge(from: 3, to: 0, in: graph) == [3, 0, 1, 2])
    #expect(order.nodeAt == [0, 1, 2, 3])
  }

  @Test func anEdgeClosingATwoNodeCycleIsFound() {
    var order = TopologicalOrder(validOrder: [1, 0])
    var graph = TestAdjacency(count: 2)
    graph.add(1, 0)
    #expect(order.insertEdge(from: 0, to: 1, in: graph) == [0, 1])
  }

  // MARK: - Property: agreement with brute force

  /// Random insertions into a growing graph. Accepted edges keep the order valid; a refused one
  /// returns a real cycle through the new edge and leaves the order unchanged; acceptance
  /// agrees with brute-force reachability. Even seeds add the edge to the graph before the
  /// call (as a store that mutates first would), odd seeds after.
  @Test(arguments: 0..<300)
  func insertionsAgreeWithBruteForce(seed: Int) {
    var random = SeededRandom(seed: UInt64(seed) &* 7919 &+ 17)
    let count = Int.random(in: 1...(seed < 200 ? 10 : 40), using: &random)
    var order = identityOrder(count: count)
    if Bool.random(using: &random) {
      order = TopologicalOrder(validOrder: Array(0..<Int32(count)).shuffled(using: &random))
    }
    var graph = TestAdjacency(count: count)
    let edgesFirst = seed.isMultiple(of: 2)
    for _ in 0..<(count * 3) {
      let source = Int32.random(in: 0..<Int32(count), using: &random)
      let target = Int32.random(in: 0..<Int32(count), using: &random)
      let closesCycle = graph.reaches(target, source)
      let before = order.nodeAt
      var trial = graph
      trial.add(source, target)
      let cycle = order.insertEdge(from: source, to: target, in: edgesFirst ? trial : graph)
      #expect((cycle != nil) == closesCycle, "seed \(seed): \(source) → \(target) in \(graph.edges)")
      if let cycle {
        #expect(order.nodeAt == before, "the order changed on a refused edge")
        #expect(cycle.first == source)
        #expect(Set(cycle).count == cycle.count, "\(cycle) repeats a node")
        if cycle.count > 1 {
          #expect(cycle[1] == target, "\(cycle) does not go through the new edge")
          // Every other step, including the closing one, is an existing edge.
          let steps = (1..<cycle.count).map { (cycle[$0], cycle[($0 + 1) % cycle.count]) }
          #expect(steps.allSatisfy { graph.has($0.0, $0.1) }, "\(cycle) is not a cycle of \(graph.edges)")
        } else {
          #expect(source == target)
        }
      } else {
        graph = trial
        #expect(isValid(order, graph), "seed \(seed): order \(order.nodeAt) after \(source) → \(target)")
        order._checkInvariants(edges: graph.edges)
      }
    }
  }

  @Test func searchesAlongALongChainDoNotRecurse() {
    // A chain 0 → 1 → … of 200,000 nodes; then a new node placed last gets an edge into 0
    // (the forward search walks the whole chain and everything moves), and 0 ← last closes a
    // cycle through every node.
    let count = 200_000
    var order = identityOrder(count: count)
    var graph = TestAdjacency(count: count + 1)
    for node in Int32(1)..<Int32(count) {
      graph.add(node - 1, node)
      #expect(order.insertEdge(from: node - 1, to: node, in: graph) == nil)
    }
    order.appendNode()
    let head = Int32(count)
    graph.add(head, 0)
    #expect(order.insertEdge(from: head, to: 0, in: graph) == nil)
    #expect(order.orderedNodes.first == head)
    #expect(isValid(order, graph))
    let cycle = order.insertEdge(from: Int32(count - 1), to: head, in: graph)
    #expect(cycle == [Int32(count - 1), head] + Array(0..<Int32(count - 1)))
  }

  @Test func anOrderKnowsWhenLabelsAreIndices() {
    #expect(identityOrder(count: 5).isIdentity)
    #expect(TopologicalOrder(validOrder: [0, 1, 2]).isIdentity)
    #expect(!TopologicalOrder(validOrder: [1, 0, 2]).isIdentity)
    // A backward edge relabels: the labels are no longer the indices.
    var order = identityOrder(count: 5)
    var graph = TestAdjacency(count: 5)
    #expect(order.insertEdge(from: 4, to: 1, in: graph) == nil)
    graph.add(4, 1)
    #expect(!order.isIdentity && isValid(order, graph))
  }

  @Test(arguments: 0..<100)
  func identityIsNeverClaimedWrongly(seed: Int) {
    // Random edges (forward and backward) and appended nodes: whenever the order says its
    // labels are the indices, they are.
    var random = SeededRandom(seed: UInt64(seed) &* 104_729 &+ 3)
    let count = 2 + Int(random.next() % 30)
    var order = identityOrder(count: count)
    var graph = TestAdjacency(count: count)
    for _ in 0..<40 {
      if random.next() % 8 == 0 {
        order.appendNode()
        graph.appendNode()
        continue
      }
      let source = Int32(random.next() % UInt64(graph.count))
      let target = Int32(random.next() % UInt64(graph.count))
      guard source != target, !graph.reaches(target, source) else { continue }
      #expect(order.insertEdge(from: source, to: target, in: graph) == nil)
      graph.add(source, target)
      #expect(isValid(order, graph))
      if order.isIdentity {
        #expect(order.position.indices.allSatisfy { order.position[$0] == Int32($0) }, "seed \(seed)")
      }
    }
  }
}
