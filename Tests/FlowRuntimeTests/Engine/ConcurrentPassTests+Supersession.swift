import FlowGraph
import FlowNodes
import FlowNodesTestSupport
import FlowRuntime
import FlowTestSupport
import Testing

/// Supersession, cancelled reports and shutdown, with gates. In `ConcurrentPassTests` because
/// that suite is serialized: a gate blocks a thread of the cooperative pool (two on a 2-core
/// machine), so two gated tests at once could starve the tasks that open the gates.
extension ConcurrentPassTests {
  /// ```
  /// runner: pass r0: x ─ g1 (blocked) ─────────── g2 … g5 (must not run on: superseded)
  /// test:         reached ─ set x = 2 (r1) ─ open
  /// values(g5):                                   first value seen is r1's (2), never r0's (1)
  /// ```
  @Test func aSupersededChainOfSlowCheapNodesPublishesNothing() async throws {
    let gate = Gate()
    var graphs = Graphs()
    graphs.number("x", 1)
    var previous = "x"
    for index in 1...5 {
      graphs.node("g\(index)", "gated")
      graphs.edge(previous, to: "g\(index)", "a")
      previous = "g\(index)"
    }
    let engine = try FlowEngine(document: graphs.document, registry: TestKinds.registry(gate: gate))
    var values = engine.values(of: "g5").makeAsyncIterator()
    var reports = engine.reports.makeAsyncIterator()
    var reached = gate.reached.makeAsyncIterator()
    await reached.next()
    try FlowEngineTests.setNumber(engine.store, "x", 2)
    gate.open()
    #expect(await values.next()?.outputs == ["result": .number(2)])
    let first = try #require(await reports.next())
    #expect(first.wasCancelled)
    #expect(!first.ran.contains("g5"), "the superseded pass stopped between nodes: \(first.ran)")
    engine.shutDown()
  }

  /// ```
  /// runner: pass r0 ─ publish │ pass r1: g (blocked) ─ superseded          │ pass r2
  /// test:   evaluate          │ add g, after (r1) ─ reached ─ set x (r2) ─ open
  /// reports:                    r1: cancelled, carrying revision 1 (not the completed 0)
  /// ```
  @Test func aCancelledReportCarriesTheRevisionItWasComputing() async throws {
    let gate = Gate()
    var graphs = Graphs()
    graphs.number("x", 1)
    // The runner's supersession is the point: a synchronous pass would block this thread at g.
    let engine = try FlowEngine(
      document: graphs.document, registry: TestKinds.registry(gate: gate),
      options: EngineOptions(runsCheapPassesSynchronously: false))
    #expect(await engine.evaluate()?.revision == 0)
    var reports = engine.reports.makeAsyncIterator()
    #expect(await reports.next()?.wasCancelled == false, "the latest report first")
    var reached = gate.reached.makeAsyncIterator()
    try engine.store.batch { batch throws(GraphValidationError) in
      try batch.addNode(FlowNode(id: "g", data: NodeSpec(kind: "gated")))
      try batch.addNode(FlowNode(id: "after", data: NodeSpec(kind: "add")))
      try batch.addEdge(FlowEdge(id: "x-g", sourceNodeID: "x", targetNodeID: "g", targetHandleID: "a"))
      try batch.addEdge(FlowEdge(id: "g-after", sourceNodeID: "g", targetNodeID: "after", targetHandleID: "a"))
    }
    await reached.next()
    try FlowEngineTests.setNumber(engine.store, "x", 3)
    gate.open()
    let cancelled = try #require(await reports.next())
    #expect(cancelled.wasCancelled)
    #expect(cancelled.revision == 1)
    #expect(cancelled.ran.first == "g")
    let final = try #require(await reports.next())
    #expect(!final.wasCancelled && final.revision == 2)
    #expect(Set(final.ran) == ["x", "g", "after"])
    #expect(await engine.outputs(of: "after") == ["result": .number(3)])
  }

  /// ```
  /// runner: pass r0: g (blocked) ───────── cancelled
  /// test:   evaluate ┐ reached ─ shutDown
  ///                  └──────────────────── returns nil
  /// ```
  @Test func evaluateWaitingAtShutdownReturnsNil() async throws {
    let gate = Gate()
    var graphs = Graphs()
    graphs.number("x", 1)
    graphs.node("g", "gated")
    graphs.edge("x", to: "g", "a")
    let engine = try FlowEngine(document: graphs.document, registry: TestKinds.registry(gate: gate))
    var reached = gate.reached.makeAsyncIterator()
    async let waited = engine.evaluate()
    await reached.next()
    engine.shutDown()
    #expect(await waited == nil)
    #expect(await engine.evaluate() == nil)
  }
}
