import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Synchronization
import Testing

/// A definition edit applied to many instances at once (each changed inner node resolved and
/// configured once): exactly the changed inner nodes and their descendants rerun, undo and redo
/// rerun the same set, and kinds that keep state in their instance still get one per node.
@Suite struct SubgraphBulkEditTests {
  typealias F = SubgraphFixtures

  /// `chain`: input `x` → `a = x + 1` → `b = a * 2` → `c = b + 3` → output `y`.
  static func chain(b: Double = 2) -> SubgraphDefinition {
    SubgraphDefinition(
      nodes: [
        F.input("x", "x"), .node("a", "add", params: ["b": 1]), .node("b", "multiply", params: ["b": .number(b)]),
        .node("c", "add", params: ["b": 3]), F.output("out", "y")
      ],
      edges: [
        .edge("e1", "x.value", "a.a"), .edge("e2", "a.result", "b.a"), .edge("e3", "b.result", "c.a"),
        .edge("e4", "c.result", "out.value")
      ])
  }

  /// Five instances fed with 0…4, each read by an outside `sum_i`, plus a node nothing reaches.
  static var document: FlowDocument {
    var nodes: [FlowNode] = [.node("lonely", "number", params: ["value": 7])]
    var edges: [FlowEdge] = []
    for index in 0..<5 {
      nodes += [
        .node("v\(index)", "number", params: ["value": .number(Double(index))]), .node("c\(index)", "chain"),
        .node("sum\(index)", "add", params: ["b": 100])
      ]
      edges += [
        .edge("in\(index)", "v\(index).value", "c\(index).x"), .edge("out\(index)", "c\(index).y", "sum\(index).a")
      ]
    }
    return F.document(nodes, edges, subgraphs: ["chain": chain()])
  }

  /// What an edit of `b` reruns: `b`, `c`, `out`, the instance node and the outside reader, per instance.
  static let rerun: Set<String> = Set((0..<5).flatMap { ["c\($0)/b", "c\($0)/c", "c\($0)/out", "c\($0)", "sum\($0)"] })

  @Test func aDefinitionEditRerunsExactlyTheChangedInnerNodesAndTheirDescendants() async throws {
    let engine = try FlowEngine(document: Self.document, registry: .standard)
    await engine.evaluate()
    #expect(await engine.outputs(of: "c3") == ["y": .number((3 + 1) * 2 + 3)])
    let changes = Mutex<[[NodeChange]]>([])
    let (_, _, observation) = engine.store.observe { change in changes.withLock { $0.append(change.nodeChanges) } }
    try engine.store.setSubgraph("chain", Self.chain(b: 5))
    let report = try #require(await engine.evaluate())
    #expect(Set(report.ran) == Self.rerun && report.ran.count == Self.rerun.count)
    for index in 0..<5 {
      #expect(await engine.outputs(of: "c\(index)") == ["y": .number((Double(index) + 1) * 5 + 3)])
      #expect(await engine.outputs(of: "sum\(index)") == ["result": .number((Double(index) + 1) * 5 + 3 + 100)])
    }
    // Observers still see one node change per inlined node replaced, in one change.
    let seen = changes.withLock { $0 }
    #expect(seen.count == 1)
    #expect(
      Set(seen.first?.compactMap { if case .replace(let node) = $0 { node.id } else { nil } } ?? [])
        == Set((0..<5).map { "c\($0)/b" }))
    observation.cancel()
    engine.shutDown()
  }

  @Test func undoAndRedoOfADefinitionEditRestoreValuesAndRerunTheSameSet() async throws {
    let engine = try FlowEngine(document: Self.document, registry: .standard)
    await engine.evaluate()
    try engine.store.setSubgraph("chain", Self.chain(b: 5))
    await engine.evaluate()
    #expect(engine.store.undo())
    let undone = try #require(await engine.evaluate())
    #expect(Set(undone.ran) == Self.rerun && undone.ran.count == Self.rerun.count)
    #expect(engine.store.subgraphs["chain"] == Self.chain())
    for index in 0..<5 { #expect(await engine.outputs(of: "c\(index)") == ["y": .number((Double(index) + 1) * 2 + 3)]) }
    #expect(engine.store.redo())
    let redone = try #require(await engine.evaluate())
    #expect(Set(redone.ran) == Self.rerun && redone.ran.count == Self.rerun.count)
    #expect(engine.store.subgraphs["chain"] == Self.chain(b: 5))
    for index in 0..<5 { #expect(await engine.outputs(of: "c\(index)") == ["y": .number((Double(index) + 1) * 5 + 3)]) }
    engine.shutDown()
  }

  @Test func aKindThatKeepsStateInItsInstanceGetsOnePerNodeAfterTheEdit() async throws {
    var registry = NodeKindRegistry.standard
    registry.register(CountingKind())
    // Each instance: v → runs (counts its own evaluations) → o, and v → acc (live, per node).
    func definition(tag: Double) -> SubgraphDefinition {
      SubgraphDefinition(
        nodes: [
          F.input("v", "v"), .node("runs", "runs", params: ["tag": .number(tag)]),
          .node("acc", "accumulate", params: ["initial": .number(tag)]), F.output("o", "count"),
          F.output("t", "total")
        ],
        edges: [
          .edge("e1", "v.value", "runs.x"), .edge("e2", "runs.count", "o.value"),
          .edge("e3", "v.value", "acc.value"), .edge("e4", "acc.total", "t.value")
        ])
    }
    let document = F.document(
      [.node("a", "tally", params: ["v": 1]), .node("b", "tally", params: ["v": 10])],
      subgraphs: ["tally": definition(tag: 0)])
    let engine = try FlowEngine(document: document, registry: registry)
    await engine.evaluate()
    try engine.store.setSubgraph("tally", definition(tag: 100))
    let report = try #require(await engine.evaluate())
    // `runs` counts 1 again (a fresh instance), so its output `o` is cut off.
    #expect(Set(report.ran) == ["a/runs", "a/acc", "a/t", "a", "b/runs", "b/acc", "b/t", "b"])
    // One instance per node: each counted its own first run (a shared one would count 1 and 2).
    #expect(await engine.outputs(of: "a")?["count"] == .number(1))
    #expect(await engine.outputs(of: "b")?["count"] == .number(1))
    // The live node restarted from the new `initial` (100) and took its instance's value, with
    // a state of its own per instance.
    let states = Dictionary(uniqueKeysWithValues: await engine.liveNodes().map { ($0.id, $0.state) })
    #expect(states == ["a/acc": .number(101), "b/acc": .number(110)])
    try engine.store.updateNode(.node("a", "tally", params: ["v": 2]))
    await engine.evaluate()
    #expect(await engine.outputs(of: "a")?["total"] == .number(103))
    #expect(await engine.outputs(of: "b")?["total"] == .number(110))
    #expect(await engine.outputs(of: "a")?["count"] == .number(2))
    #expect(await engine.outputs(of: "b")?["count"] == .number(1))
    engine.shutDown()
  }
}

/// A host kind whose instance counts its evaluations: it keeps per-node mutable state in its
/// configuration, so it does not declare `sharesConfiguration`.
private struct CountingKind: NodeKind {
  var name: String { "runs" }
  var summary: String { "the number of times this node ran" }
  var parameters: [ParameterDeclaration] { [ParameterDeclaration("tag", .number, default: .number(0))] }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(
      inputs: [InputPort("x", .number, default: .number(0))], outputs: [PortDeclaration("count", .number)],
      evaluator: Counter())
  }

  final class Counter: NodeEvaluator {
    let runs = Mutex(0)

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      outputs[0] = .number(
        Double(
          runs.withLock { runs in
            runs += 1
            return runs
          }))
    }
  }
}
