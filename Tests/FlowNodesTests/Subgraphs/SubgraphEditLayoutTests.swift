import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Synchronization
import Testing

/// A definition edit finds each instance's inlined nodes by offset from the instance's slot (the
/// store) and by stride from the last node replaced (the engine), each guess checked by id: these
/// tests break the regular layout (instances of two kinds interleaved, one nesting the other;
/// instances removed, added and re-expanded; slots renumbered by compaction) and compare with a
/// fresh engine over the document as written.
@Suite struct SubgraphEditLayoutTests {
  typealias F = SubgraphFixtures

  /// `ratio` instances `r0…`, `twice` instances `t0…` (each nesting a `ratio`) interleaved, each
  /// fed by its own number.
  static func document(count: Int) -> FlowDocument {
    var nodes: [FlowNode] = [], edges: [FlowEdge] = []
    for index in 0..<count {
      let kind = index % 3 == 1 ? "twice" : "ratio", id = kind == "twice" ? "t\(index)" : "r\(index)"
      nodes += [.node("v\(index)", "number", params: ["value": .number(Double(index + 1))]), .node(id, kind)]
      edges.append(.edge("in\(index)", "v\(index).value", kind == "twice" ? "\(id).x" : "\(id).num"))
    }
    return F.document(nodes, edges, subgraphs: ["ratio": F.ratio, "twice": F.twice])
  }

  static func ratio(formula: String) -> SubgraphDefinition {
    var ratio = F.ratio
    ratio.nodes[2] = .node("q", "expression", params: ["formula": .string(formula)])
    return ratio
  }

  /// What an edit of `ratio`'s `q` reruns in the instances the store holds now.
  static func rerun(_ store: FlowStore) -> Set<String> {
    var ids = Set<String>()
    for node in store.export().nodes {
      if node.data.kind == "ratio" { ids.formUnion(["\(node.id)/q", "\(node.id)/out", node.id]) }
      if node.data.kind == "twice" {
        ids.formUnion([
          "\(node.id)/inner/q", "\(node.id)/inner/out", "\(node.id)/inner", "\(node.id)/m", "\(node.id)/out", node.id
        ])
      }
    }
    return ids
  }

  /// Every node's outputs in `engine` equal those of a fresh engine over its store's document.
  static func expectMatchesReference(_ engine: FlowEngine, _ comment: Comment) async throws {
    let document = engine.store.export()
    let reference = try FlowEngine(document: document, registry: .standard)
    await reference.evaluate()
    for node in document.nodes {
      let (ours, theirs) = (await engine.outputs(of: node.id), await reference.outputs(of: node.id))
      #expect(ours == theirs && ours != nil, "\(comment): \(node.id)")
    }
    reference.shutDown()
  }

  /// The ids of the nodes a change replaced, in order.
  static func replaced(_ change: FlowStoreChange) -> [String] {
    change.nodeChanges.compactMap { if case .replace(let node) = $0 { node.id } else { nil } }
  }

  @Test func definitionEditsOverAnIrregularLayoutReplaceAndRerunExactlyTheChangedNodes() async throws {
    let engine = try FlowEngine(document: Self.document(count: 24), registry: .standard)
    engine.store._compactionMinimum = 0  // every removal renumbers the slots (stale hints)
    await engine.evaluate()
    let changes = Mutex<[FlowStoreChange]>([])
    let (_, _, observation) = engine.store.observe { change in changes.withLock { $0.append(change) } }
    for round in 0..<4 {
      switch round {
      case 1:  // an instance removed, one added at the end, one re-expanded with other params
        try engine.store.removeNode(id: "r3")
        try engine.store.addNode(.node("r99", "ratio", params: ["den": 4]))
        try engine.store.addEdge(.edge("in99", "v3.value", "r99.num"))
        try engine.store.updateNode(.node("r5", "ratio", params: ["den": 2]))
      case 2:  // a nested instance's kind edited directly: its layout is its own now
        try engine.store.setSubgraph(
          "twice",
          {
            var twice = F.twice; twice.nodes[3].data.params["b"] = 3; return twice
          }())
      default: break
      }
      await engine.evaluate()
      changes.withLock { $0.removeAll() }
      try engine.store.setSubgraph("ratio", Self.ratio(formula: "a / b + \(round + 1)"))
      let report = try #require(await engine.evaluate())
      let expected = Self.rerun(engine.store)
      #expect(Set(report.ran) == expected && report.ran.count == expected.count, "round \(round)")
      try await Self.expectMatchesReference(engine, "round \(round)")
      // One change; the replaced `q`s in the store's (document) order, nothing else replaced.
      let seen = changes.withLock { $0 }
      #expect(seen.count == 1 && seen.first?.subgraphsChanged == ["ratio"])
      let order = engine.store.nodes.map(\.id).filter { $0.hasSuffix("/q") }
      #expect(seen.first.map(Self.replaced) == order, "round \(round)")
    }
    observation.cancel()
    engine.shutDown()
  }

  @Test func undoAndRedoAfterTheLayoutChangedRestoreValuesRerunTheSameSetAndRecordWhatAGuardSees() async throws {
    // The same edits on two stores; one has a guard, so its undo and redo are described as the
    // guard sees them, and the other's (described when read) must read the same.
    let plain = try FlowEngine(document: Self.document(count: 9), registry: .standard)
    let guarded = try FlowEngine(document: Self.document(count: 9), registry: .standard)
    let seen = Mutex<[StoreOperation]>([])
    guarded.store.addGuard(
      StoreGuard("watch") { operation in
        seen.withLock { $0.append(operation) }
        return .allow
      })
    for engine in [plain, guarded] {
      engine.store._compactionMinimum = 0
      await engine.evaluate()
      try engine.store.removeNode(id: "r0")
      try engine.store.setSubgraph("ratio", Self.ratio(formula: "a / b + 1"))
      let edit = try #require(await engine.evaluate())
      #expect(engine.store.undo())
      let undone = try #require(await engine.evaluate())
      #expect(Set(undone.ran) == Set(edit.ran) && undone.ran.count == edit.ran.count)
      #expect(engine.store.subgraphs["ratio"] == F.ratio)
      try await Self.expectMatchesReference(engine, "after undo")
      #expect(engine.store.redo())
      let redone = try #require(await engine.evaluate())
      #expect(Set(redone.ran) == Set(edit.ran) && redone.ran.count == edit.ran.count)
      try await Self.expectMatchesReference(engine, "after redo")
    }
    let records = (plain.store.operationHistory.suffix(2), guarded.store.operationHistory.suffix(2))
    #expect(records.0.map(\.operation.kind) == [.undo, .redo])
    #expect(records.0.map(\.operation) == records.1.map(\.operation))
    #expect(Array(seen.withLock { $0 }.filter { $0.kind == .undo || $0.kind == .redo }) == records.1.map(\.operation))
    #expect(records.0.first?.operation.nodeIDs.count == Self.rerun(plain.store).filter { $0.hasSuffix("/q") }.count)
    plain.shutDown()
    guarded.shutDown()
  }

  @Test func aChangedInputDefaultReachesTheInstancesThatDoNotSetIt() async throws {
    var nodes: [FlowNode] = [.node("six", "number", params: ["value": 6])], edges: [FlowEdge] = []
    for index in 0..<6 {
      nodes.append(.node("r\(index)", "ratio", params: index.isMultiple(of: 2) ? ["den": 2] : [:]))
      edges.append(.edge("in\(index)", "six.value", "r\(index).num"))
    }
    let engine = try FlowEngine(document: F.document(nodes, edges, subgraphs: ["ratio": F.ratio]), registry: .standard)
    await engine.evaluate()
    var ratio = F.ratio
    ratio.nodes[1] = F.input("d", "den", default: 3)
    try engine.store.setSubgraph("ratio", ratio)
    let report = try #require(await engine.evaluate())
    // Every `d` changed (its `default`), but only the instances without `den` see a new value:
    // their `q`, `out` and themselves rerun; the others are cut off at `d`.
    #expect(
      Set(report.ran) == Set([1, 3, 5].flatMap { ["r\($0)/q", "r\($0)/out", "r\($0)"] } + (0..<6).map { "r\($0)/d" }))
    for index in 0..<6 {
      #expect(await engine.outputs(of: "r\(index)") == ["value": .number(index.isMultiple(of: 2) ? 3 : 2)])
    }
    try await Self.expectMatchesReference(engine, "new default")
    #expect(engine.store.undo())
    await engine.evaluate()
    for index in 0..<6 {
      #expect(await engine.outputs(of: "r\(index)") == ["value": .number(index.isMultiple(of: 2) ? 3 : 6)])
    }
    engine.shutDown()
  }
}
