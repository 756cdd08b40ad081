import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Synchronization
import Testing

/// Instances evaluated through a `FlowStore` and a `FlowEngine` (Reference.md, "Subgraphs"): values, failures by
/// path, editing definitions and instances as diffs, live state per instance.
@Suite struct SubgraphEngineTests {
  typealias F = SubgraphFixtures

  static var nested: FlowDocument {
    F.document(
      [
        .node("eight", "number", params: ["value": 8]), .node("t", "twice"), .node("c", "circle", params: ["r": 1]),
        .node("sum", "add")
      ],
      [.edge("t1", "eight.value", "t.x"), .edge("t2", "t.y", "sum.a"), .edge("t3", "c.area", "sum.b")],
      subgraphs: ["ratio": F.ratio, "twice": F.twice, "circle": F.circle])
  }

  @Test func nestedInstancesEvaluateAsTheirInlinedNodes() async throws {
    let engine = try FlowEngine(document: Self.nested, registry: .standard)
    let report = try #require(await engine.evaluate())
    #expect(await engine.outputs(of: "t") == ["y": .number(4)])  // 8 / 4 * 2
    #expect(await engine.outputs(of: "t/inner/q") == ["result": .number(2)])
    #expect(await engine.outputs(of: "sum")?["result"] == .number(4 + Double.pi))
    #expect(
      Set(report.ran).isSuperset(of: ["t/x", "t/d", "t/inner/n", "t/inner/d", "t/inner/q", "t/inner", "t/m", "t", "c/k"]
      ))
    engine.shutDown()
  }

  @Test func anInnerFailureIsNamedByItsPath() async throws {
    let document = F.document(
      [.node("bad", "ratio", params: ["num": 1, "den": 0]), .node("after", "add")],
      [.edge("t1", "bad.value", "after.a")], subgraphs: ["ratio": F.ratio])
    let engine = try FlowEngine(document: document, registry: .standard)
    await engine.evaluate()
    let failures = await engine.failures()
    #expect(failures["bad/q"] == "division by zero")
    #expect(failures["bad"] == "upstream error from bad/q")
    #expect(failures["after"] == "upstream error from bad/q")
    engine.shutDown()
  }

  @Test func replacingADefinitionRerunsOnlyWhatChangedWithItsDescendants() async throws {
    let engine = try FlowEngine(document: Self.nested, registry: .standard)
    await engine.evaluate()
    var changed = F.twice
    changed.nodes[3].data.params["b"] = 3  // m: × 3 instead of × 2
    let seen = Mutex<[[String]]>([])
    let (_, _, observation) = engine.store.observe { change in seen.withLock { $0.append(change.subgraphsChanged) } }
    try engine.store.setSubgraph("twice", changed)
    let report = try #require(await engine.evaluate())
    #expect(Set(report.ran) == ["t/m", "t/out", "t", "sum"], "only the changed inner node and its descendants")
    #expect(await engine.outputs(of: "t") == ["y": .number(6)])
    #expect(seen.withLock { $0 } == [["twice"]])
    #expect(engine.store.export().subgraphs["twice"] == changed)
    // Nested: editing `ratio` reaches the instance inside `twice`.
    var ratio = F.ratio
    ratio.nodes[2] = .node("q", "expression", params: ["formula": "a / b + 1"])
    try engine.store.setSubgraph("ratio", ratio)
    let nested = try #require(await engine.evaluate())
    #expect(Set(nested.ran) == ["t/inner/q", "t/inner/out", "t/inner", "t/m", "t/out", "t", "sum"])
    #expect(await engine.outputs(of: "t") == ["y": .number(9)])  // (8/4 + 1) * 3
    // Undo puts the definition and the values back.
    #expect(engine.store.undo())
    await engine.evaluate()
    #expect(await engine.outputs(of: "t") == ["y": .number(6)])
    #expect(engine.store.subgraphs["ratio"] == F.ratio)
    #expect(engine.store.redo())
    await engine.evaluate()
    #expect(await engine.outputs(of: "t") == ["y": .number(9)])
    observation.cancel()
    engine.shutDown()
  }

  @Test func aPortServedByAnotherInputNodeTakesTheOutsideEdgeWithIt() async throws {
    let engine = try FlowEngine(document: Self.nested, registry: .standard)
    await engine.evaluate()
    var moved = F.twice
    moved.nodes[0] = F.input("x2", "x")  // port x now served by node x2
    moved.edges[0] = .edge("e1", "x2.value", "inner.num")
    try engine.store.setSubgraph("twice", moved)
    #expect(engine.store.incomingEdges(of: "t/x2").map(\.id) == ["t1"] && engine.store.node(id: "t/x") == nil)
    let report = try #require(await engine.evaluate())
    #expect(
      Set(report.ran) == ["t/x2", "t/inner/n"],
      "the new input node and the one rewired to it; the same value, cut off there")
    #expect(await engine.outputs(of: "t") == ["y": .number(4)])  // 8 / 4 * 2
    #expect(engine.store.undo())
    #expect(engine.store.incomingEdges(of: "t/x").map(\.id) == ["t1"])
    await engine.evaluate()
    #expect(await engine.outputs(of: "t") == ["y": .number(4)])
    engine.shutDown()
  }

  @Test func aDefinitionChangeThatBreaksAnInstanceChangesNothing() async throws {
    let store = try FlowStore(catalog: NodeKindRegistry.standard, document: Self.nested)
    let revision = store.revision
    #expect(throws: GraphValidationError.self) { try store.setSubgraph("ratio", nil) }  // used by twice
    var renamed = F.twice
    renamed.nodes[0] = F.input("x", "value")  // t.x is connected
    let error = #expect(throws: GraphValidationError.self) { try store.setSubgraph("twice", renamed) }
    #expect(error?.description.contains("no input 'x'") == true, "\(String(describing: error))")
    var loop = F.ratio
    loop.nodes.append(.node("again", "twice", params: ["x": 1]))
    #expect(throws: GraphValidationError.self) { try store.setSubgraph("ratio", loop) }
    #expect(store.revision == revision)
    #expect(store.subgraphs["ratio"] == F.ratio)
  }

  @Test func instancesAreAddedConnectedUpdatedAndRemovedAsOneNode() async throws {
    let document = F.document([.node("six", "number", params: ["value": 6])], subgraphs: ["ratio": F.ratio])
    let engine = try FlowEngine(document: document, registry: .standard)
    await engine.evaluate()
    try engine.store.addNode(.node("h", "ratio", params: ["den": 2]))
    try engine.store.addEdge(.edge("t1", "six.value", "h.num"))
    await engine.evaluate()
    #expect(await engine.outputs(of: "h") == ["value": .number(3)])
    try engine.store.updateNode(.node("h", "ratio", params: ["den": 3]))
    let report = try #require(await engine.evaluate())
    #expect(Set(report.ran) == ["h/d", "h/q", "h/out", "h"], "the input node the param sets, and what it feeds")
    #expect(await engine.outputs(of: "h") == ["value": .number(2)])
    #expect(engine.store.export().edges == [.edge("t1", "six.value", "h.num")])
    let bad = #expect(throws: GraphValidationError.self) {
      try engine.store.addEdge(.edge("t2", "six.value", "h.nope"))
    }
    #expect(bad?.description.contains("node 'h' (ratio) has no input 'nope'") == true)
    try engine.store.removeNode(id: "h")
    #expect(engine.store.nodes.map(\.id) == ["six"])
    #expect(engine.store.undo())
    #expect(engine.store.nodes.count == 6 && engine.store.export().nodes.map(\.id) == ["six", "h"])
    engine.shutDown()
  }

  @Test func liveNodesKeepStatePerInstanceThroughSaveAndRestore() async throws {
    let tally = SubgraphDefinition(
      nodes: [F.input("v", "v"), .node("acc", "accumulate"), F.output("o", "total")],
      edges: [.edge("e1", "v.value", "acc.value"), .edge("e2", "acc.total", "o.value")])
    let document = F.document(
      [.node("a", "tally", params: ["v": 1]), .node("b", "tally", params: ["v": 10])],
      subgraphs: ["tally": tally])
    let engine = try FlowEngine(document: document, registry: .standard)
    await engine.evaluate()
    try engine.store.updateNode(.node("a", "tally", params: ["v": 2]))
    await engine.evaluate()
    #expect(await engine.outputs(of: "a") == ["total": .number(3)])
    #expect(await engine.outputs(of: "b") == ["total": .number(10)])
    let saved = await engine.documentWithLiveState()
    engine.shutDown()
    #expect(saved.liveState["a/acc"] != nil && saved.liveState["b/acc"] != nil)
    #expect(saved.liveState["a/acc"] != saved.liveState["b/acc"])
    #expect(saved.nodes.map(\.id) == ["a", "b"], "saved as written, state under the inlined ids")
    let restored = try FlowEngine(
      document: try FlowDocument(jsonBytes: Array(saved.jsonString().utf8)), registry: .standard)
    // The same state restored into the flattened graph written by hand: the same outcome.
    var flat = FlowDocument(
      nodes: [
        .node("a/v", "number", params: ["value": 2]), .node("a/acc", "accumulate"),
        .node("b/v", "number", params: ["value": 10]), .node("b/acc", "accumulate")
      ],
      edges: [.edge("e1", "a/v.value", "a/acc.value"), .edge("e2", "b/v.value", "b/acc.value")])
    flat.liveState = saved.liveState
    let reference = try FlowEngine(document: flat, registry: .standard)
    for engine in [restored, reference] { await engine.evaluate() }
    let states = Dictionary(uniqueKeysWithValues: await restored.liveNodes().map { ($0.id, $0.state) })
    let expected = Dictionary(uniqueKeysWithValues: await reference.liveNodes().map { ($0.id, $0.state) })
    #expect(states == expected && states.count == 2)
    #expect(await restored.outputs(of: "a/acc") == (await reference.outputs(of: "a/acc")))
    try restored.store.updateNode(.node("b", "tally", params: ["v": 5]))
    try reference.store.updateNode(.node("b/v", "number", params: ["value": 5]))
    for engine in [restored, reference] { await engine.evaluate() }
    #expect(await restored.outputs(of: "b") == ["total": try #require(await reference.outputs(of: "b/acc")?["total"])])
    #expect(await restored.outputs(of: "a") == ["total": try #require(await reference.outputs(of: "a/acc")?["total"])])
    restored.shutDown()
    reference.shutDown()
  }
}

extension SubgraphEngineTests {
  @Test func anImportedDefinitionIsEditedInTheStoresCopy() async throws {
    let imported = SubgraphSource(origin: "lib.flow.json", definitions: ["ratio": F.ratio])
    let document = FlowDocument(nodes: [.node("h", "ratio", params: ["num": 6, "den": 2])])
    let engine = try FlowEngine(
      store: FlowStore(catalog: NodeKindRegistry.standard, document: document, imported: [imported]),
      registry: .standard)
    await engine.evaluate()
    #expect(await engine.outputs(of: "h") == ["value": .number(3)])
    var plusOne = F.ratio
    plusOne.nodes[2] = .node("q", "expression", params: ["formula": "a / b + 1"])
    try engine.store.setSubgraph("ratio", plusOne)
    await engine.evaluate()
    #expect(await engine.outputs(of: "h") == ["value": .number(4)])
    #expect(engine.store.subgraphLibrary["ratio"]?.origin == "lib.flow.json")
    #expect(engine.store.export().subgraphs.isEmpty, "imported definitions are not written into the document")
    engine.shutDown()
  }
}
