import FlowGraph
import FlowNodes
@testable import FlowRuntime
import FlowTestSupport
import Synchronization
import Testing

/// A definition edit that only changes inner nodes' specs reaches observers as one
/// `.subgraphReplaced` item (and so do its undo and redo); expanded, it is exactly the per-node
/// changes, and the store, an engine and a fresh engine over the exported document agree. Edits
/// that add or remove inner nodes or edges still go node by node.
@Suite struct SubgraphReplacementTests {
  typealias F = SubgraphFixtures
  typealias Bulk = SubgraphBulkEditTests

  /// The changes a store delivers, in order.
  final class Recorder: Sendable {
    let changes = Mutex<[FlowStoreChange]>([])
    let nodeCallbacks = Mutex<[[NodeChange]]>([])
    func drain() -> [FlowStoreChange] {
      changes.withLock { changes in
        defer { changes = [] }; return changes
      }
    }
  }

  /// `.replace` of each listed inner node as the store holds it now, instance after instance.
  static func replaces(_ store: FlowStore, _ inner: [String], instances: Range<Int> = 0..<5) -> [NodeChange] {
    instances.flatMap { index in inner.compactMap { id in store.node(id: "c\(index)/\(id)").map { .replace($0) } } }
  }

  static func observe(_ store: FlowStore, _ recorder: Recorder) -> FlowStore.Observation {
    store.onNodesChange = { changes in recorder.nodeCallbacks.withLock { $0.append(changes) } }
    return store.observe { change in recorder.changes.withLock { $0.append(change) } }.observation
  }

  @Test func aParamEditReachesObserversAsOneBulkItemThatExpandsToThePerNodeChanges() async throws {
    let engine = try FlowEngine(document: Bulk.document, registry: .standard)
    await engine.evaluate()
    let recorder = Recorder()
    let observation = Self.observe(engine.store, recorder)
    try engine.store.setSubgraph("chain", Bulk.chain(b: 5))
    let change = try #require(recorder.drain().first)
    #expect(change.items.count == 1 && change.subgraphsChanged == ["chain"])
    guard case .subgraphReplaced(let replacement) = change.items.first else {
      Issue.record("expected a bulk item, got \(change.items)")
      return
    }
    #expect(replacement.name == "chain" && replacement.instanceIDs == (0..<5).map { "c\($0)" })
    #expect(replacement.innerNodes.map(\.id) == ["/b"] && replacement.nodeChangeCount == 5)
    // Expanded: one `.replace` per instance's `b`, exactly the node the store now holds.
    let expected = Self.replaces(engine.store, ["b"])
    #expect(expected.count == 5)
    #expect(change.nodeChanges == expected)
    #expect(change.expandedItems == expected.map { .node($0) } && change.expandedItemCount == 5)
    #expect(recorder.nodeCallbacks.withLock { $0 } == [expected])
    // The engine reran exactly the changed nodes' descendants, with the values a fresh engine
    // over the exported document computes.
    let report = try #require(await engine.evaluate())
    #expect(Set(report.ran) == Bulk.rerun && report.ran.count == Bulk.rerun.count)
    try await SubgraphEditLayoutTests.expectMatchesReference(engine, "after the bulk edit")
    observation.cancel()
    engine.shutDown()
  }

  @Test func undoAndRedoOfABulkEditAreBulkItemsRestoringTheNodesAndRerunningTheSameSet() async throws {
    let engine = try FlowEngine(document: Bulk.document, registry: .standard)
    await engine.evaluate()
    let before = Self.replaces(engine.store, ["a", "b", "c"])
    try engine.store.setSubgraph("chain", Bulk.chain(b: 5))
    let edited = try #require(await engine.evaluate())
    let after = Self.replaces(engine.store, ["a", "b", "c"])
    let recorder = Recorder()
    let observation = Self.observe(engine.store, recorder)

    #expect(engine.store.undo())
    let undoChange = try #require(recorder.drain().first)
    #expect(undoChange.items.count == 1 && undoChange.subgraphsChanged == ["chain"])
    #expect(undoChange.nodeChanges == Self.replaces(engine.store, ["b"]))
    #expect(Self.replaces(engine.store, ["a", "b", "c"]) == before)
    let undone = try #require(await engine.evaluate())
    #expect(Set(undone.ran) == Set(edited.ran) && undone.ran.count == edited.ran.count)
    try await SubgraphEditLayoutTests.expectMatchesReference(engine, "after undo")

    #expect(engine.store.redo())
    let redoChange = try #require(recorder.drain().first)
    #expect(redoChange.items.count == 1 && redoChange.nodeChanges == Self.replaces(engine.store, ["b"]))
    #expect(Self.replaces(engine.store, ["a", "b", "c"]) == after)
    let redone = try #require(await engine.evaluate())
    #expect(Set(redone.ran) == Set(edited.ran) && redone.ran.count == edited.ran.count)
    try await SubgraphEditLayoutTests.expectMatchesReference(engine, "after redo")
    // The history describes the replay node by node.
    let described = engine.store.operationHistory.last?.operation.nodeIDs ?? []
    #expect(described == (0..<5).map { "c\($0)/b" })
    observation.cancel()
    engine.shutDown()
  }

  @Test func bulkStepsSurviveACompactionThatRenumbersTheirSlots() async throws {
    let engine = try FlowEngine(document: Bulk.document, registry: .standard)
    await engine.evaluate()
    engine.store.undoCapacity = 2
    let original = Self.replaces(engine.store, ["a", "b", "c"])
    // `lonely` (slot 0) becomes a tombstone that the history forgets after two more steps, so
    // the second edit's compaction drops it and moves every later slot, the bulk steps' too.
    try engine.store.removeNode(id: "lonely")
    try engine.store.setSubgraph("chain", Bulk.chain(b: 5))
    let five = Self.replaces(engine.store, ["a", "b", "c"])
    engine.store._compactionMinimum = 0
    try engine.store.setSubgraph("chain", Bulk.chain(b: 7))
    let seven = Self.replaces(engine.store, ["a", "b", "c"])
    func expectOutputs(_ b: Double, _ comment: Comment) async {
      await engine.evaluate()
      for index in 0..<5 {
        let expected: Double = (Double(index) + 1) * b + 3
        #expect(await engine.outputs(of: "c\(index)") == ["y": .number(expected)], comment)
      }
    }
    await expectOutputs(7, "after the edits")
    #expect(engine.store.undo())
    #expect(Self.replaces(engine.store, ["a", "b", "c"]) == five)
    await expectOutputs(5, "after one undo")
    #expect(engine.store.undo())
    #expect(Self.replaces(engine.store, ["a", "b", "c"]) == original)
    await expectOutputs(2, "after two undos")
    #expect(!engine.store.undo())
    #expect(engine.store.redo() && engine.store.redo())
    #expect(Self.replaces(engine.store, ["a", "b", "c"]) == seven)
    await expectOutputs(7, "after two redos")
    try await SubgraphEditLayoutTests.expectMatchesReference(engine, "after compaction, undo and redo")
    engine.shutDown()
  }

  @Test func anEditThatAddsAndRemovesInnerNodesAndEdgesGoesNodeByNode() async throws {
    let engine = try FlowEngine(document: Bulk.document, registry: .standard)
    await engine.evaluate()
    // `chain` with `c` replaced by `d = b - 1` (another id, another edge into `out`).
    var changed = Bulk.chain(b: 2)
    changed.nodes[3] = .node("d", "subtract", params: ["b": 1])
    changed.edges[2] = .edge("e5", "b.result", "d.a")
    changed.edges[3] = .edge("e6", "d.result", "out.value")
    let recorder = Recorder()
    let observation = Self.observe(engine.store, recorder)
    try engine.store.setSubgraph("chain", changed)
    let change = try #require(recorder.drain().first)
    #expect(!change.items.contains { if case .subgraphReplaced = $0 { true } else { false } })
    #expect(change.expandedItems == change.items)
    #expect(Set(change.nodeChanges.map(\.nodeID)) == Set((0..<5).flatMap { ["c\($0)/c", "c\($0)/d"] }))
    let report = try #require(await engine.evaluate())
    let rerun = Set((0..<5).flatMap { ["c\($0)/d", "c\($0)/out", "c\($0)", "sum\($0)"] })
    #expect(Set(report.ran) == rerun && report.ran.count == rerun.count)
    for index in 0..<5 { #expect(await engine.outputs(of: "c\(index)") == ["y": .number((Double(index) + 1) * 2 - 1)]) }
    try await SubgraphEditLayoutTests.expectMatchesReference(engine, "after the structural edit")
    #expect(engine.store.undo())
    await engine.evaluate()
    for index in 0..<5 { #expect(await engine.outputs(of: "c\(index)") == ["y": .number((Double(index) + 1) * 2 + 3)]) }
    try await SubgraphEditLayoutTests.expectMatchesReference(engine, "after undoing the structural edit")
    observation.cancel()
    engine.shutDown()
  }

  @Test func aBulkItemAppliedWithoutTheStoresPayloadsGivesTheSameValues() async throws {
    // An evaluator fed the items by hand (no resolutions) configures each node itself.
    let store = try FlowStore(catalog: NodeKindRegistry.standard, document: Bulk.document)
    let (snapshot, _, initial) = store.observe { _ in }
    initial.cancel()
    var evaluator = try GraphEvaluator(validating: snapshot, registry: NodeKindRegistry.standard)
    evaluator.evaluate()
    let recorder = Recorder()
    let observation = Self.observe(store, recorder)
    try store.setSubgraph("chain", Bulk.chain(b: 5))
    for change in recorder.drain() { for item in change.items { evaluator.apply(item) } }
    let report = evaluator.evaluate()
    #expect(Set(report.ran) == Bulk.rerun)
    for index in 0..<5 {
      let expected: Double = (Double(index) + 1) * 5 + 3
      #expect(evaluator.outputs(of: "c\(index)") == ["y": .number(expected)])
    }
    observation.cancel()
  }
}
