import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

/// Definition edits in a row, undone and redone, over instances that come and go: the changed
/// inner node of every instance shares one configuration (counted, freed with its last user;
/// debug passes check the counts), and each step reruns exactly the changed inner nodes and
/// their descendants, with the values of the flattened graph.
@Suite struct SubgraphRepeatedEditTests {
  typealias B = SubgraphBulkEditTests

  /// What an edit of `b` reruns in the instances `indices`.
  static func rerun(_ indices: [Int]) -> Set<String> {
    Set(indices.flatMap { ["c\($0)/b", "c\($0)/c", "c\($0)/out", "c\($0)", "sum\($0)"] })
  }

  /// Each instance of `indices` (fed with its index) reads `(index + 1) × b + 3`, and its outside reader 100 more.
  static func expectValues(_ engine: FlowEngine, b: Double, _ indices: [Int]) async {
    for index in indices {
      let y = (Double(index) + 1) * b + 3
      #expect(await engine.outputs(of: "c\(index)") == ["y": .number(y)], "c\(index) with b = \(b)")
      #expect(await engine.outputs(of: "sum\(index)") == ["result": .number(y + 100)], "sum\(index) with b = \(b)")
    }
  }

  @Test func editsInARowUndoneAndRedoneRerunExactlyTheChangedNodes() async throws {
    let engine = try FlowEngine(document: B.document, registry: .standard)
    await engine.evaluate()
    let all = Array(0..<5)
    // Each step: the store call, then the b every instance reads.
    let steps: [(name: String, step: () throws -> Void, b: Double)] = [
      ("edit 5", { try engine.store.setSubgraph("chain", B.chain(b: 5)) }, 5),
      ("edit 7", { try engine.store.setSubgraph("chain", B.chain(b: 7)) }, 7),
      ("undo", { #expect(engine.store.undo()) }, 5),
      ("undo", { #expect(engine.store.undo()) }, 2),
      ("redo", { #expect(engine.store.redo()) }, 5),
      ("redo", { #expect(engine.store.redo()) }, 7),
      ("undo", { #expect(engine.store.undo()) }, 5),
      ("edit 9", { try engine.store.setSubgraph("chain", B.chain(b: 9)) }, 9),
      ("undo", { #expect(engine.store.undo()) }, 5)
    ]
    for (name, step, b) in steps {
      try step()
      let report = try #require(await engine.evaluate())
      #expect(Set(report.ran) == Self.rerun(all) && report.ran.count == Self.rerun(all).count, "\(name)")
      await Self.expectValues(engine, b: b, all)
    }
    #expect(engine.store.subgraphs["chain"] == B.chain(b: 5) && engine.store.canRedo)
    engine.shutDown()
  }

  @Test func instancesRemovedAndAddedBetweenEditsRerunOnlyWhileTheyAreThere() async throws {
    let engine = try FlowEngine(document: B.document, registry: .standard)
    await engine.evaluate()
    try engine.store.setSubgraph("chain", B.chain(b: 5))
    await engine.evaluate()
    // Instance c2 leaves (its inlined nodes, which shared the edit's configuration, go).
    try engine.store.removeNode(id: "c2")
    await engine.evaluate()
    try engine.store.setSubgraph("chain", B.chain(b: 7))
    var report = try #require(await engine.evaluate())
    #expect(Set(report.ran) == Self.rerun([0, 1, 3, 4]) && report.ran.count == 4 * 5)
    await Self.expectValues(engine, b: 7, [0, 1, 3, 4])
    // A new instance c5 (configured on its own) joins the next edit.
    try engine.store.addNode(.node("v5", "number", params: ["value": 5]))
    try engine.store.addNode(.node("c5", "chain"))
    try engine.store.addNode(.node("sum5", "add", params: ["b": 100]))
    try engine.store.addEdge(.edge("in5", "v5.value", "c5.x"))
    try engine.store.addEdge(.edge("out5", "c5.y", "sum5.a"))
    await engine.evaluate()
    await Self.expectValues(engine, b: 7, [5])
    try engine.store.setSubgraph("chain", B.chain(b: 11))
    report = try #require(await engine.evaluate())
    #expect(Set(report.ran) == Self.rerun([0, 1, 3, 4, 5]) && report.ran.count == 5 * 5)
    await Self.expectValues(engine, b: 11, [0, 1, 3, 4, 5])
    // Undo the edit, then the additions one by one: the instances left read b = 7.
    #expect(engine.store.undo())
    report = try #require(await engine.evaluate())
    #expect(Set(report.ran) == Self.rerun([0, 1, 3, 4, 5]))
    await Self.expectValues(engine, b: 7, [0, 1, 3, 4, 5])
    for _ in 0..<5 { #expect(engine.store.undo()) }
    await engine.evaluate()
    #expect(engine.store.node(id: "c5") == nil)
    try engine.store.setSubgraph("chain", B.chain(b: 2))
    report = try #require(await engine.evaluate())
    #expect(Set(report.ran) == Self.rerun([0, 1, 3, 4]) && report.ran.count == 4 * 5)
    await Self.expectValues(engine, b: 2, [0, 1, 3, 4])
    engine.shutDown()
  }
}
