import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

/// What an app developer meets first: batches with ordinary throwing closures, undo that says
/// why, states with accessors, outputs in port order, readable JSON, the store's own catalog.
@Suite struct EmbeddingAPITests {
  struct HostError: Error, Equatable { var reason: String }

  @Test func aBatchTakesAnOrdinaryThrowingClosureAndRollsBackOnItsError() throws {
    let store = try FlowStore(catalog: NodeKindRegistry.standard, document: FlowEngineTests.calculator())
    let revision = store.revision
    // The snippet of Documentation/Reference.md, as written there.
    try store.batch { batch in
      try batch.addNode(FlowNode(id: "c", data: NodeSpec(kind: "add")))
      try batch.addEdge(FlowEdge(id: "x-c", sourceNodeID: "x", targetNodeID: "c", targetHandleID: "a"))
    }
    #expect(store.revision == revision + 1 && store.node(id: "c") != nil)
    #expect(throws: HostError(reason: "no d")) {
      try store.batch { batch in
        try batch.addNode(FlowNode(id: "d", data: NodeSpec(kind: "add")))
        guard batch.node(id: "nowhere") != nil else { throw HostError(reason: "no d") }
      }
    }
    #expect(store.node(id: "d") == nil && store.revision == revision + 1, "rolled back, no revision")
    #expect(throws: GraphValidationError.self) {
      try store.batch { batch in try batch.addNode(FlowNode(id: "x", data: NodeSpec(kind: "add"))) }
    }
  }

  @Test func undoAndRedoSayWhyNothingHappened() throws {
    let store = try FlowStore(catalog: NodeKindRegistry.standard, document: FlowEngineTests.calculator())
    #expect(store.attemptUndo() == .nothingToDo)
    try FlowEngineTests.setNumber(store, "x", 9)
    store.addGuard(StoreGuard("frozen") { _ in .veto("the graph is frozen") })
    guard case .vetoed(let error) = store.attemptUndo() else {
      Issue.record("a guard's veto is told apart from an empty history")
      return
    }
    #expect(error.description.contains("the graph is frozen"))
    #expect(store.attemptRedo() == .nothingToDo)
  }

  @Test func nodeStatesHaveAccessorsAndOutputsComeInPortOrder() async throws {
    let engine = try FlowEngine(
      store: FlowStore(catalog: NodeKindRegistry.standard, document: FlowEngineTests.calculator()))
    await engine.evaluate()
    let state = try #require(await engine.state(of: "twice"))
    #expect(state.value(of: "result") == .number(10) && state.failure == nil && state.table(of: "result") == nil)
    let failed = NodeState.failed(message: "upstream error from a", root: "a")
    #expect(
      failed.failure == NodeState.Failure(message: "upstream error from a", root: "a") && failed.value(of: "x") == nil)
    let ordered = try #require(await engine.orderedOutputs(of: "twice"))
    #expect(ordered.map(\.port) == ["result"] && ordered.first?.value == .number(10))
    let snapshot = await engine.snapshot()
    #expect(snapshot.revision == engine.store.revision && snapshot.outputs(of: "sum") == ["result": .number(5)])
  }

  @Test func jsonValuesPrintAsCompactJSONInTheirOrder() {
    let object: JSONObject = ["zkg": 1, "akg": "zkg + 1", "list": [true, nil]]
    #expect(object.description == #"{"zkg":1,"akg":"zkg + 1","list":[true,null]}"#)
    #expect("\(JSONValue.object(object))" == object.description)
    #expect(JSONValue.number(2.5).description == "2.5")
  }

  @Test func anEngineOverAStoreTakesTheStoresCatalog() throws {
    struct Other: NodeCatalog {
      func resolve(_ spec: NodeSpec) -> NodeSpecResolution { NodeKindRegistry.standard.resolve(spec) }
    }
    let store = try FlowStore(catalog: Other(), document: FlowEngineTests.calculator())
    #expect(throws: GraphValidationError.self) { try FlowEngine(store: store) }
  }
}
