import Testing

import FlowGraph
import FlowTestSupport

/// The cycles validation reports for `document`, as node-id lists.
private func reportedCycles(_ document: FlowDocument) -> [[String]] {
  document.validationIssues().filter { $0.code == .cycle }.map(\.nodeIDs)
}

/// `cycle` rotated to start at its smallest id, so rotations of one cycle compare equal.
private func canonical(_ cycle: [String]) -> [String] {
  guard let start = cycle.indices.min(by: { cycle[$0] < cycle[$1] }) else { return cycle }
  return Array(cycle[start...] + cycle[..<start])
}

/// Whether `cycle` is a real cycle of `document`: distinct nodes, each joined to the next by an
/// edge, the last back to the first.
private func isRealCycle(_ cycle: [String], in document: FlowDocument) -> Bool {
  let edges = Set(document.edges.map { [$0.sourceNodeID, $0.targetNodeID] })
  guard !cycle.isEmpty, Set(cycle).count == cycle.count else { return false }
  return cycle.indices.allSatisfy { edges.contains([cycle[$0], cycle[($0 + 1) % cycle.count]]) }
}

/// Brute force: `reaches[u][v]` when a path (possibly empty) leads from `u` to `v`.
private func reachability(count: Int, edges: [(Int, Int)]) -> [[Bool]] {
  var successors = [[Int]](repeating: [], count: count)
  for (u, v) in edges { successors[u].append(v) }
  return (0..<count).map { start in
    var seen = [Bool](repeating: false, count: count)
    seen[start] = true
    var stack = [start]
    while let node = stack.popLast() {
      for next in successors[node] where !seen[next] {
        seen[next] = true
        stack.append(next)
      }
    }
    return seen
  }
}

@Suite struct CycleRuleTests {
  @Test func aDAGHasNoCycleAndAnOrderRespectingEveryEdge() throws {
    // Diamond with a tail: n0 → n1, n0 → n2, n1 → n3, n2 → n3, n3 → n4, listed out of order.
    let document = DocumentBuilder.mergeGraph(count: 5, edges: [(3, 4), (1, 3), (0, 1), (2, 3), (0, 2)])
    let graph = try DocumentValidator.validate(document, catalog: TestCatalog())
    let position = Dictionary(uniqueKeysWithValues: graph.topologicalOrder.enumerated().map { ($1, $0) })
    #expect(graph.topologicalOrder.sorted() == [0, 1, 2, 3, 4])
    #expect(graph.edges.allSatisfy { position[$0.source]! < position[$0.target]! })
  }

  @Test func aSelfLoopIsACycleOfOneNode() {
    let issues = DocumentBuilder.mergeGraph(count: 2, edges: [(0, 1), (1, 1)]).validationIssues()
    #expect(issues.count == 1)
    #expect(issues.first?.code == .cycle)
    #expect(issues.first?.nodeIDs == ["n1"])
    #expect(issues.first?.message == "cycle: n1 → n1")
  }

  @Test func aCycleListsItsNodesInEdgeOrder() {
    // n0 → n2 → n1 → n0: the order of the edges, not of the node list.
    let document = DocumentBuilder.mergeGraph(count: 3, edges: [(0, 2), (1, 0), (2, 1)])
    let issues = document.validationIssues()
    #expect(issues.map(\.code) == [.cycle])
    #expect(issues.first.map { canonical($0.nodeIDs) } == ["n0", "n2", "n1"])
    let ids = issues.first?.nodeIDs ?? []
    #expect(issues.first?.message == "cycle: " + (ids + ids.prefix(1)).joined(separator: " → "))
  }

  @Test func aCycleWithADownstreamTailListsOnlyTheCycle() {
    // A → B → A, B → C.
    let document = FlowDocument(
      nodes: [.node("A", "identity"), .node("B", "merge"), .node("C", "identity")],
      edges: [.edge("e1", "A", "B.in0"), .edge("e2", "B", "A"), .edge("e3", "B", "C")])
    let cycles = reportedCycles(document)
    #expect(cycles.map(canonical) == [["A", "B"]])
    #expect(document.validationIssues().count == 1)
  }

  @Test func aCycleWithAnUpstreamTailListsOnlyTheCycle() {
    // X → A → B → A.
    let document = DocumentBuilder.mergeGraph(count: 3, edges: [(2, 0), (0, 1), (1, 0)])
    #expect(reportedCycles(document).map(canonical) == [["n0", "n1"]])
  }

  @Test func twoDisjointCyclesAreBothReported() {
    let document = DocumentBuilder.mergeGraph(count: 5, edges: [(0, 1), (1, 0), (2, 3), (3, 4), (4, 2)])
    let cycles = reportedCycles(document)
    #expect(cycles.map(canonical).sorted { $0.count < $1.count } == [["n0", "n1"], ["n2", "n3", "n4"]])
  }

  @Test func twoCyclesJoinedByAnEdgeAreBothReported() {
    // n0 ⇄ n1 → n2 ⇄ n3: finding the downstream cycle first must not hide the upstream one.
    for edges in [[(0, 1), (1, 2), (1, 0), (2, 3), (3, 2)], [(2, 3), (3, 2), (1, 2), (0, 1), (1, 0)]] {
      let document = DocumentBuilder.mergeGraph(count: 4, edges: edges)
      #expect(Set(reportedCycles(document).map(canonical)) == [["n0", "n1"], ["n2", "n3"]], "edges \(edges)")
    }
  }

  @Test func aSelfLoopInsideALargerCycleIsReported() {
    let document = DocumentBuilder.mergeGraph(count: 3, edges: [(0, 1), (1, 1), (1, 2), (2, 0)])
    let cycles = reportedCycles(document)
    #expect(!cycles.isEmpty)
    #expect(cycles.allSatisfy { isRealCycle($0, in: document) })
  }

  @Test func aCycleIsReportedAlongsideOtherProblems() {
    let document = FlowDocument(
      nodes: [.node("a", "merge"), .node("b", "identity"), .node("x", "nope")],
      edges: [.edge("e1", "a", "b"), .edge("e2", "b", "a.in0"), .edge("e3", "x", "a.in1")])
    #expect(document.validationIssues().map(\.code) == [.unknownKind, .cycle])
  }

  // MARK: - Property: agreement with brute force

  @Test(arguments: 0..<200)
  func cycleDetectionAgreesWithBruteForce(seed: Int) {
    var random = SeededRandom(seed: UInt64(seed))
    let count = Int.random(in: 1...8, using: &random)
    let edgeCount = Int.random(in: 0...(2 * count), using: &random)
    let edges = (0..<edgeCount).map { _ in
      (Int.random(in: 0..<count, using: &random), Int.random(in: 0..<count, using: &random))
    }
    let document = DocumentBuilder.mergeGraph(count: count, edges: edges)
    let reaches = reachability(count: count, edges: edges)
    let cyclic = edges.contains { u, v in reaches[v][u] }

    let issues = document.validationIssues()
    #expect(issues.allSatisfy { $0.code == .cycle }, "only cycles: \(issues)")
    let cycles = issues.map(\.nodeIDs)
    #expect(!cycles.isEmpty == cyclic, "edges \(edges)")
    for cycle in cycles {
      #expect(isRealCycle(cycle, in: document), "\(cycle) in edges \(edges)")
    }
    #expect(Set(cycles.map(canonical)).count == cycles.count, "a cycle reported twice: \(cycles)")
    // Every strongly connected component that holds a cycle has a cycle reported in it.
    let index = { (id: String) in Int(id.dropFirst())! }
    for (u, v) in edges where reaches[v][u] {
      let component = (0..<count).filter { reaches[u][$0] && reaches[$0][u] }
      #expect(
        cycles.contains { $0.allSatisfy { component.contains(index($0)) } },
        "no cycle reported through n\(u) in edges \(edges): \(cycles)")
    }
  }

  // MARK: - Scale

  @Test func aMillionNodeChainValidatesWithoutRecursion() throws {
    let count = 1_000_000
    let document = DocumentBuilder.chain(count: count)
    let graph = try DocumentValidator.validate(document, catalog: TestCatalog())
    #expect(graph.nodeCount == count)
    #expect(graph.edges.count == count - 1)
    var position = [Int32](repeating: -1, count: count)
    for (place, node) in graph.topologicalOrder.enumerated() { position[Int(node)] = Int32(place) }
    #expect(graph.topologicalOrder.count == count)
    #expect(!position.contains(-1))
    #expect(graph.edges.allSatisfy { position[Int($0.source)] < position[Int($0.target)] })
  }

  @Test func aThousandNodeCycleIsListedWhole() {
    var document = DocumentBuilder.chain(count: 1000)
    document.nodes[0] = .node("n0", "pass")
    document.edges[0].sourceHandleID = "out"
    document.edges.append(.edge("back", "n999.out", "n0.in"))
    let cycles = reportedCycles(document)
    #expect(cycles.count == 1)
    #expect(cycles.first?.count == 1000)
    #expect(cycles.first.map { isRealCycle($0, in: document) } == true)
  }
}
