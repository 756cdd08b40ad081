import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

@Suite struct FlowEngineTests {
  static func calculator() -> FlowDocument {
    var graphs = Graphs()
    graphs.number("x", 2)
    graphs.number("y", 3)
    graphs.node("sum", "add")
    graphs.node("twice", "multiply", ["b": 2])
    graphs.node("other", "add", ["b": 1])
    graphs.edge("x", to: "sum", "a")
    graphs.edge("y", to: "sum", "b")
    graphs.edge("sum", to: "twice", "a")
    graphs.edge("y", to: "other", "a")
    return graphs.document
  }

  static func setNumber(_ store: FlowStore, _ id: String, _ value: Double) throws {
    var node = try #require(store.node(id: id))
    node.data.params["value"] = .number(value)
    try store.updateNode(node)
  }

  @Test func theFirstPassEvaluatesEverything() async throws {
    let engine = try FlowEngine(document: Self.calculator(), registry: .standard)
    let report = try #require(await engine.evaluate())
    #expect(Set(report.ran) == ["x", "y", "sum", "twice", "other"])
    #expect(await engine.outputs(of: "twice") == ["result": .number(10)])
    #expect(report.revision == engine.store.revision)
  }

  @Test func changingAParamRecomputesOnlyItsDescendants() async throws {
    let engine = try FlowEngine(document: Self.calculator(), registry: .standard)
    await engine.evaluate()
    try Self.setNumber(engine.store, "x", 5)
    let report = try #require(await engine.evaluate())
    #expect(report.ran == ["x", "sum", "twice"])
    #expect(await engine.outputs(of: "twice") == ["result": .number(16)])
    #expect(await engine.evaluationCount(of: "other") == 1)
  }

  @Test func anUnchangedOutputCutsOffItsDescendants() async throws {
    var graphs = Graphs()
    graphs.number("x", 2)
    graphs.node("zero", "multiply", ["b": 0])
    graphs.node("after", "add", ["b": 1])
    graphs.edge("x", to: "zero", "a")
    graphs.edge("zero", to: "after", "a")
    let engine = try FlowEngine(document: graphs.document, registry: .standard)
    await engine.evaluate()
    try Self.setNumber(engine.store, "x", 7)
    let report = try #require(await engine.evaluate())
    #expect(report.ran == ["x", "zero"])
    #expect(report.cutOff == ["zero"])
  }

  @Test func connectingAndDisconnectingReevaluatesTheTarget() async throws {
    let engine = try FlowEngine(document: Self.calculator(), registry: .standard)
    await engine.evaluate()
    try engine.store.addEdge(FlowEdge(id: "new", sourceNodeID: "twice", targetNodeID: "other", targetHandleID: "b"))
    var report = try #require(await engine.evaluate())
    #expect(report.ran == ["other"])
    #expect(await engine.outputs(of: "other") == ["result": .number(13)])
    try engine.store.removeEdge(id: "new")
    report = try #require(await engine.evaluate())
    #expect(report.ran == ["other"])
    #expect(await engine.outputs(of: "other") == ["result": .number(4)])
  }

  @Test func addingAndRemovingNodesKeepsTheRestUpToDate() async throws {
    let engine = try FlowEngine(document: Self.calculator(), registry: .standard)
    await engine.evaluate()
    try engine.store.batch { batch throws(GraphValidationError) in
      try batch.addNode(FlowNode(id: "z", data: NodeSpec(kind: "number", params: ["value": 10])))
      try batch.addNode(FlowNode(id: "late", data: NodeSpec(kind: "add")))
      try batch.addEdge(FlowEdge(id: "z-late", sourceNodeID: "z", targetNodeID: "late", targetHandleID: "a"))
      try batch.addEdge(FlowEdge(id: "twice-late", sourceNodeID: "twice", targetNodeID: "late", targetHandleID: "b"))
    }
    var report = try #require(await engine.evaluate())
    #expect(Set(report.ran) == ["z", "late"])
    #expect(await engine.outputs(of: "late") == ["result": .number(20)])
    try engine.store.removeNode(id: "sum")
    report = try #require(await engine.evaluate())
    #expect(report.ran == ["twice", "late"])
    #expect(await engine.outputs(of: "late") == ["result": .number(12)])
    #expect(await engine.outputs(of: "sum") == nil)
  }

  @Test func aFormulaChangeReconnectsEdgesByPortName() async throws {
    var graphs = Graphs()
    graphs.number("a", 2)
    graphs.number("b", 10)
    graphs.node("f", "expression", ["formula": "a - b"])
    graphs.edge("a", to: "f", "a")
    graphs.edge("b", to: "f", "b")
    let engine = try FlowEngine(document: graphs.document, registry: .standard)
    await engine.evaluate()
    #expect(await engine.outputs(of: "f") == ["result": .number(-8)])
    var node = try #require(engine.store.node(id: "f"))
    node.data.params["formula"] = "b / a + c"
    try engine.store.updateNode(node)
    await engine.evaluate()
    #expect(await engine.outputs(of: "f") == ["result": .number(5)])
  }

  @Test func aFailureRecoversWhenItsCauseIsFixed() async throws {
    var graphs = Graphs()
    graphs.number("one", 1)
    graphs.number("d", 0)
    graphs.node("q", "divide")
    graphs.node("next", "add")
    graphs.edge("one", to: "q", "a")
    graphs.edge("d", to: "q", "b")
    graphs.edge("q", to: "next", "a")
    let engine = try FlowEngine(document: graphs.document, registry: .standard)
    await engine.evaluate()
    #expect(await engine.failures() == ["q": "division by zero", "next": "upstream error from q"])
    try Self.setNumber(engine.store, "d", 4)
    let report = try #require(await engine.evaluate())
    #expect(report.ran == ["d", "q", "next"])
    #expect(await engine.failures().isEmpty)
    #expect(await engine.outputs(of: "next") == ["result": .number(0.25)])
  }

  @Test func valuesAndReportsArriveAsAsyncSequences() async throws {
    let engine = try FlowEngine(document: Self.calculator(), registry: .standard)
    await engine.evaluate()
    var values = engine.values(of: "twice").makeAsyncIterator()
    var reports = engine.reports.makeAsyncIterator()
    #expect(await values.next()?.outputs == ["result": .number(10)])
    #expect(await reports.next()?.revision == engine.store.revision, "the latest report first")
    try Self.setNumber(engine.store, "y", 4)
    #expect(await values.next()?.outputs == ["result": .number(12)])
    let report = try #require(await reports.next())
    #expect(Set(report.ran) == ["y", "sum", "twice", "other"] && report.ran.first == "y")
    try Self.setNumber(engine.store, "y", 4.5)
    #expect(await values.next()?.outputs == ["result": .number(13)])
    engine.shutDown()
    #expect(await values.next() == nil)
  }

  @Test func anInvalidatedNodeRunsAgainWithoutAStoreChange() async throws {
    let engine = try FlowEngine(document: Self.calculator(), registry: .standard)
    await engine.evaluate()
    var reports = engine.reports.makeAsyncIterator()
    #expect(await reports.next()?.ran.count == 5, "the first pass's report first")
    engine.invalidate("sum")
    let report = try #require(await reports.next())
    #expect(report.ran == ["sum"])
    #expect(report.cutOff == ["sum"])
  }

  @Test func rejectedMutationsChangeNothing() async throws {
    let engine = try FlowEngine(document: Self.calculator(), registry: .standard)
    await engine.evaluate()
    let revision = engine.store.revision
    #expect(throws: GraphValidationError.self) {
      try engine.store.addEdge(FlowEdge(id: "loop", sourceNodeID: "twice", targetNodeID: "sum", targetHandleID: "a"))
    }
    #expect(engine.store.revision == revision)
    let report = try #require(await engine.evaluate())
    #expect(report.revision == revision)
    #expect(await engine.outputs(of: "twice") == ["result": .number(10)])
  }
}
