import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Synchronization
import Testing

/// A definition edit in bulk remembers, per slot, that it wrote each inner node as its template
/// stamped it (`StoreStamps`), and the next edit trusts that instead of comparing the node.
/// These check that nothing else is trusted: an inner node edited or moved on its own, and slots
/// renumbered by compaction (with the edits in the history replayed after it), leave the next
/// edit replacing exactly the right nodes, rerunning exactly the changed ones, with the values
/// of the flattened graph. Debug builds also check every stamp's claim after each mutation.
@Suite struct SubgraphStampTests {
  typealias B = SubgraphBulkEditTests
  typealias R = SubgraphRepeatedEditTests

  /// `b` of each instance, by index.
  static func expect(_ engine: FlowEngine, _ b: [Double], _ comment: String) async {
    for (index, b) in b.enumerated() {
      let y = (Double(index) + 1) * b + 3
      #expect(await engine.outputs(of: "c\(index)") == ["y": .number(y)], "c\(index): \(comment)")
      #expect(await engine.outputs(of: "sum\(index)") == ["result": .number(y + 100)], "sum\(index): \(comment)")
    }
  }

  /// Runs a pass and checks that exactly `expected` ran.
  static func expectRan(_ engine: FlowEngine, _ expected: Set<String>, _ comment: String) async throws {
    let report = try #require(await engine.evaluate())
    #expect(Set(report.ran) == expected && report.ran.count == expected.count, "\(comment): ran \(report.ran.sorted())")
  }

  @Test func anInnerNodeEditedOrMovedOnItsOwnIsNotTakenAsStamped() async throws {
    let engine = try FlowEngine(document: B.document, registry: .standard)
    await engine.evaluate()
    let all = Array(0..<5)
    try engine.store.setSubgraph("chain", B.chain(b: 5))
    try await Self.expectRan(engine, R.rerun(all), "edit 5")
    // c1's `b` takes its own param; c2's `c` moves (same spec).
    var inner = try #require(engine.store.node(id: "c1/b"))
    inner.data.params["b"] = .number(42)
    try engine.store.updateNode(inner)
    try await Self.expectRan(engine, R.rerun([1]), "own param")
    var moved = try #require(engine.store.node(id: "c2/c"))
    moved.position.x += 40
    try engine.store.updateNode(moved)
    await engine.evaluate()
    await Self.expect(engine, [5, 42, 5, 5, 5], "c1/b on its own")
    // The next edit puts the template's spec back in c1/b too, and c2/c keeps its place.
    try engine.store.setSubgraph("chain", B.chain(b: 7))
    try await Self.expectRan(engine, R.rerun(all), "edit 7")
    await Self.expect(engine, [7, 7, 7, 7, 7], "edit 7")
    #expect(engine.store.node(id: "c2/c")?.position.x == moved.position.x)
    #expect(engine.store.node(id: "c1/b")?.data.params["b"] == .number(7))
    // Undo brings c1's own param back; the edit after it must not trust c1/b.
    #expect(engine.store.undo())
    try await Self.expectRan(engine, R.rerun(all), "undo")
    await Self.expect(engine, [5, 42, 5, 5, 5], "undo")
    try engine.store.setSubgraph("chain", B.chain(b: 9))
    try await Self.expectRan(engine, R.rerun(all), "edit 9")
    await Self.expect(engine, [9, 9, 9, 9, 9], "edit 9")
    // And in a row again, where every node is as stamped.
    try engine.store.setSubgraph("chain", B.chain(b: 11))
    try await Self.expectRan(engine, R.rerun(all), "edit 11")
    await Self.expect(engine, [11, 11, 11, 11, 11], "edit 11")
    engine.store._checkInvariants()
    engine.shutDown()
  }

  /// Twelve unconnected nodes listed before the instances, removed with a short undo history,
  /// so that a compaction drops most of their slots and renumbers every instance's.
  @Test func editsAcrossACompactionReplaceTheRenumberedNodes() async throws {
    var document = B.document
    document.nodes.insert(
      contentsOf: (0..<12).map { FlowNode.node("p\($0)", "number", params: ["value": .number(Double($0))]) }, at: 0)
    let engine = try FlowEngine(document: document, registry: .standard)
    await engine.evaluate()
    let all = Array(0..<5)
    engine.store._compactionMinimum = 1_000
    engine.store.undoCapacity = 2
    for index in 0..<10 { try engine.store.removeNode(id: "p\(index)") }
    await engine.evaluate()
    engine.store.undoCapacity = 10
    try engine.store.setSubgraph("chain", B.chain(b: 5))
    try await Self.expectRan(engine, R.rerun(all), "edit 5")
    // The next commit compacts: p0…p7 go (p8 and p9 are still in the history), the edits'
    // steps are renumbered.
    let slots = engine.store._slotCounts.nodes
    engine.store._compactionMinimum = 5
    try engine.store.setSubgraph("chain", B.chain(b: 7))
    #expect(engine.store._slotCounts.nodes == slots - 8, "compacted")
    try await Self.expectRan(engine, R.rerun(all), "edit 7")
    await Self.expect(engine, [7, 7, 7, 7, 7], "edit 7")
    let steps: [(name: String, step: () throws -> Void, b: Double)] = [
      ("undo", { #expect(engine.store.undo()) }, 5),
      ("undo", { #expect(engine.store.undo()) }, 2),
      ("redo", { #expect(engine.store.redo()) }, 5),
      ("edit 9", { try engine.store.setSubgraph("chain", B.chain(b: 9)) }, 9),
      ("edit 11", { try engine.store.setSubgraph("chain", B.chain(b: 11)) }, 11),
      ("undo", { #expect(engine.store.undo()) }, 9),
      ("undo", { #expect(engine.store.undo()) }, 5),
      ("edit 13", { try engine.store.setSubgraph("chain", B.chain(b: 13)) }, 13)
    ]
    for (name, step, b) in steps {
      try step()
      try await Self.expectRan(engine, R.rerun(all), name)
      await Self.expect(engine, Array(repeating: b, count: 5), name)
      engine.store._checkInvariants()
    }
    // The nodes that were never removed are all there, once.
    #expect(engine.store.nodes.filter { $0.id.hasPrefix("p") }.map(\.id) == ["p10", "p11"])
    engine.shutDown()
  }

  /// Where a wrongly trusted slot and the node-by-node path would differ: an inner node whose
  /// own `zIndex` or `isDraggable` changed is not its template's, so the next edit goes node by
  /// node (per-node change items) and puts the template's fields back; the edit after that, with
  /// every node as stamped again, is one `.subgraphReplaced` item.
  @Test func anInnerNodeWithItsOwnFieldsTakesTheNodeByNodePathAndGetsTheTemplatesBack() async throws {
    let engine = try FlowEngine(document: B.document, registry: .standard)
    await engine.evaluate()
    let bulk = Mutex<[Bool]>([])
    let (_, _, observation) = engine.store.observe { change in
      guard change.subgraphsChanged.contains("chain") else { return }
      bulk.withLock { $0.append(change.items.contains { if case .subgraphReplaced = $0 { true } else { false } }) }
    }
    try engine.store.setSubgraph("chain", B.chain(b: 5))
    await engine.evaluate()
    var raised = try #require(engine.store.node(id: "c1/b"))
    raised.zIndex = 5
    try engine.store.updateNode(raised)
    var pinned = try #require(engine.store.node(id: "c3/b"))
    pinned.isDraggable = false
    try engine.store.updateNode(pinned)
    await engine.evaluate()
    try engine.store.setSubgraph("chain", B.chain(b: 7))
    try await Self.expectRan(engine, R.rerun(Array(0..<5)), "edit 7")
    await Self.expect(engine, [7, 7, 7, 7, 7], "edit 7")
    #expect(engine.store.node(id: "c1/b")?.zIndex == 0 && engine.store.node(id: "c3/b")?.isDraggable == true)
    try engine.store.setSubgraph("chain", B.chain(b: 9))
    try await Self.expectRan(engine, R.rerun(Array(0..<5)), "edit 9")
    await Self.expect(engine, [9, 9, 9, 9, 9], "edit 9")
    #expect(bulk.withLock { $0 } == [true, false, true])
    observation.cancel()
    engine.shutDown()
  }

  /// Setting a definition equal to the current one is no revision and no undo step; removing a
  /// definition a host registered (not the store's) while an instance uses it is still refused.
  @Test func theSameDefinitionAgainChangesNothingAndAHostsDefinitionInUseIsNotRemoved() async throws {
    let store = try FlowStore(catalog: NodeKindRegistry.standard, document: B.document)
    try store.setSubgraph("chain", B.chain(b: 5))
    let revision = store.revision
    try store.setSubgraph("chain", B.chain(b: 5))
    #expect(store.revision == revision)
    #expect(store.undo())
    #expect(store.subgraphs["chain"] == B.chain(b: 2))
    var registry = NodeKindRegistry.standard
    try registry.register(
      subgraphsFrom: FlowDocument(nodes: [], edges: [], subgraphs: ["lib": B.chain(b: 4)]), origin: "lib.flow.json")
    let hosted = try FlowStore(
      catalog: registry, document: FlowDocument(nodes: [.node("l0", "lib", params: ["x": 1])], edges: []))
    #expect(throws: GraphValidationError.self) { try hosted.setSubgraph("lib", nil) }
    #expect(hosted.node(id: "l0/b")?.data.params["b"] == .number(4))
  }
}
