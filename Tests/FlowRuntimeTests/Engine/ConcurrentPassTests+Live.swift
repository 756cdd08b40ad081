import FlowGraph
import FlowNodes
import FlowNodesTestSupport
import FlowRuntime
import FlowTestSupport
import Testing

/// Live sources against a slow consumer and supersession, with gates. In `ConcurrentPassTests`
/// because that suite is serialized (see `ConcurrentPassTests+Supersession.swift`).
extension ConcurrentPassTests {
  /// ```
  /// source r: 1 2 … (buffer full) n (held, r suspended) ………………… n+1 … 200
  /// runner:   pass(1): g blocked at the gate ──────────────── open ─ passes 2 … 200
  /// test:     r suspended, buffer ≤ capacity, nothing processed ─ open ─ sum == 20100
  /// ```
  @Test func backPressureKeepsTheBufferBoundedWhileAConsumerIsSlow() async throws {
    let gate = Gate()
    var graphs = Graphs()
    graphs.node("r", "range", ["count": .number(200)])
    graphs.node("g", "gated")
    graphs.node("sum", "accumulate")
    graphs.edge("r", to: "g", "a")
    graphs.edge("g", to: "sum", "value")
    let capacity = 4
    let engine = try FlowEngine(
      document: graphs.document, registry: LiveTestKinds.registry(gate: gate),
      options: EngineOptions(emissionBufferCapacity: capacity))
    var reached = gate.reached.makeAsyncIterator()
    await reached.next()
    while engine.suspendedSourceCount == 0 { await Task.yield() }
    for _ in 0..<100 {
      #expect(engine.queuedEmissionCount <= capacity, "the buffer never grows past its capacity")
      await Task.yield()
    }
    #expect(engine.processedEmissionCount == 0)
    #expect(engine.runningSourceCount == 1, "the source is suspended, not finished")
    gate.open()
    await engine.waitForLiveSources()
    #expect(await engine.outputs(of: "sum") == ["total": .number(20_100)], "nothing was dropped")
    #expect(engine.processedEmissionCount == 200)
    engine.shutDown()
  }

  /// ```
  /// runner: pass(emission 5): g (blocked) ─ p1 ─ stop │ pass(change + emission 5 again): … acc
  /// test:   send 5 ─ reached ─ set x = 2 ─ open
  /// acc:    state unchanged by the stopped pass; 5 after the next one (not 10)
  /// ```
  @Test func aSupersededEmissionPassLeavesLiveStateUnchanged() async throws {
    let gate = Gate()
    let script = SourceScript("s")
    var graphs = Graphs()
    graphs.number("x", 1)
    graphs.node("s", "s")
    graphs.node("g", "gated")
    graphs.edge("s", to: "g", "a")
    var previous = "g"
    for index in 1...3 {
      graphs.node("p\(index)", "add")
      graphs.edge(previous, to: "p\(index)", "a")
      previous = "p\(index)"
    }
    graphs.node("acc", "accumulate")
    graphs.edge(previous, to: "acc", "value")
    graphs.node("k", "counter")
    graphs.edge("acc", to: "k", "trigger")
    let engine = try FlowEngine(document: graphs.document, registry: LiveTestKinds.registry([script], gate: gate))
    await engine.evaluate()
    var reports = engine.reports.makeAsyncIterator()
    #expect(await reports.next()?.wasCancelled == false, "the latest report first")
    var reached = gate.reached.makeAsyncIterator()
    script.send(.number(5))
    await reached.next()
    try FlowEngineTests.setNumber(engine.store, "x", 2)
    gate.open()
    let first = try #require(await reports.next())
    #expect(first.wasCancelled)
    #expect(!first.ran.contains("acc"), "the superseded pass stopped before acc: \(first.ran)")
    let finished = try #require(await engine.evaluate())
    #expect(!finished.wasCancelled)
    #expect(await engine.outputs(of: "acc") == ["total": .number(5)], "the emission counted once")
    #expect(await engine.outputs(of: "k") == ["count": .integer(1)])
    #expect(engine.processedEmissionCount == 1)
    #expect(await engine.liveNodes().first { $0.id == "acc" }?.state == .number(5))
    script.finish()
    engine.shutDown()
  }
}
