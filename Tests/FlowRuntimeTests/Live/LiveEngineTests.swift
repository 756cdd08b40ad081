import FlowGraph
import FlowNodes
import FlowNodesTestSupport
import FlowRuntime
import FlowTestSupport
import Testing

/// Live nodes in an engine: state across passes and edits, teardown, restarts, pending nodes,
/// emissions as events, save and restore. Time is a `ManualClock`; nothing sleeps.
@Suite struct LiveEngineTests {
  /// `clock c → counter k`, plus an unrelated `x → y`.
  static func clockAndCounter(interval: Double = 1) -> FlowDocument {
    var graphs = Graphs()
    graphs.node("c", "clock", ["interval": .number(interval)])
    graphs.node("k", "counter")
    graphs.edge("c", to: "k", "trigger")
    graphs.number("x", 1)
    graphs.node("y", "add")
    graphs.edge("x", to: "y", "a")
    return graphs.document
  }

  /// Advances the clock by one interval once the source sleeps, and waits for `k` to count `count`.
  static func tick(
    _ clock: ManualClock, _ values: inout NodeValues.Iterator, expect count: Int64,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    await clock.waitForSleepers()
    clock.advance(by: .seconds(1))
    #expect(await values.nextOutputs() == ["count": .integer(count)], sourceLocation: sourceLocation)
  }

  static func state(_ engine: FlowEngine, _ id: String) async -> JSONValue? {
    await engine.liveNodes().first { $0.id == id }?.state
  }

  @Test func dependentsOfASourceArePendingUntilItsFirstEmission() async throws {
    let clock = ManualClock()
    let engine = try FlowEngine(document: Self.clockAndCounter(), registry: .standard, clock: clock)
    await engine.evaluate()
    #expect(await engine.outputs(of: "k") == nil, "pending: no value")
    #expect(await engine.outputs(of: "c") == nil)
    #expect(await engine.failures().isEmpty, "pending nodes do not fail")
    #expect(await engine.evaluationCount(of: "k") == 0, "pending nodes do not run")
    var values = engine.values(of: "k").makeAsyncIterator()
    await Self.tick(clock, &values, expect: 1)
    #expect(await engine.outputs(of: "c") == ["tick": .integer(1)])
    engine.shutDown()
  }

  @Test func stateSurvivesUnrelatedEditsAndPasses() async throws {
    let clock = ManualClock()
    let engine = try FlowEngine(document: Self.clockAndCounter(), registry: .standard, clock: clock)
    var values = engine.values(of: "k").makeAsyncIterator()
    await Self.tick(clock, &values, expect: 1)
    await Self.tick(clock, &values, expect: 2)
    try FlowEngineTests.setNumber(engine.store, "x", 5)
    let report = try #require(await engine.evaluate())
    #expect(report.ran == ["x", "y"], "an unrelated edit does not run the live nodes")
    #expect(await Self.state(engine, "k") == .number(2))
    #expect(await Self.state(engine, "c") == .number(2))
    await Self.tick(clock, &values, expect: 3)
    engine.shutDown()
  }

  @Test func removingASourceStopsItsTask() async throws {
    let clock = ManualClock()
    let engine = try FlowEngine(document: Self.clockAndCounter(), registry: .standard, clock: clock)
    await engine.evaluate()
    #expect(engine.runningSourceCount == 1)
    #expect(await engine.liveNodes().map(\.id) == ["c", "k"])
    try engine.store.removeNode(id: "c")
    await engine.evaluate()
    await engine.waitUntilNoSourceRuns()
    #expect(engine.runningSourceCount == 0)
    #expect(await engine.liveNodes().map(\.id) == ["k"])
    try engine.store.removeNode(id: "k")
    await engine.evaluate()
    #expect(await engine.liveNodes().isEmpty)
    engine.shutDown()
  }

  @Test func shutdownStopsEverySource() async throws {
    let clock = ManualClock()
    let engine = try FlowEngine(document: Self.clockAndCounter(), registry: .standard, clock: clock)
    await engine.evaluate()
    await clock.waitForSleepers()
    engine.shutDown()
    await engine.waitUntilNoSourceRuns()
    #expect(engine.runningSourceCount == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test func changingAParamRestartsTheSourceWithFreshState() async throws {
    let clock = ManualClock()
    let engine = try FlowEngine(document: Self.clockAndCounter(), registry: .standard, clock: clock)
    var ticks = engine.values(of: "c").makeAsyncIterator()
    await clock.waitForSleepers()
    clock.advance(by: .seconds(1))
    await clock.waitForSleepers()
    clock.advance(by: .seconds(1))
    #expect(await ticks.nextOutputs() == ["tick": .integer(1)])
    #expect(await ticks.nextOutputs() == ["tick": .integer(2)])
    var node = try #require(engine.store.node(id: "c"))
    node.data.params["interval"] = .number(2)
    try engine.store.updateNode(node)
    await engine.evaluate()
    #expect(await Self.state(engine, "c") == .number(0), "a reconfigured node starts from fresh state")
    #expect(await engine.outputs(of: "c") == nil, "and is pending until it emits")
    #expect(engine.runningSourceCount >= 1)
    await clock.waitForSleepers()
    clock.advance(by: .seconds(2))
    #expect(await ticks.nextOutputs() == ["tick": .integer(1)])
    engine.shutDown()
  }

  @Test func aSourceOfManyEmissionsIsSummedExactly() async throws {
    var graphs = Graphs()
    graphs.node("r", "range", ["count": .number(10_000)])
    graphs.node("sum", "accumulate")
    graphs.node("n", "counter")
    graphs.edge("r", to: "sum", "value")
    graphs.edge("r", to: "n", "trigger")
    let engine = try FlowEngine(document: graphs.document, registry: LiveTestKinds.registry())
    await engine.waitForLiveSources()
    #expect(await engine.outputs(of: "sum") == ["total": .number(50_005_000)])
    #expect(await engine.outputs(of: "n") == ["count": .integer(10_000)], "one pass per emission")
    #expect(engine.processedEmissionCount == 10_000)
    #expect(await engine.liveNodes().first { $0.id == "r" }?.isFinished == true)
    engine.shutDown()
  }

  @Test func equalEmissionsAreEventsAndEditsAreNot() async throws {
    let script = SourceScript("s")
    var graphs = Graphs()
    graphs.node("s", "s")
    graphs.node("sum", "accumulate")
    graphs.node("k", "counter")
    graphs.node("p", "previous", ["initial": .number(-1)])
    graphs.edge("s", to: "sum", "value")
    graphs.edge("sum", to: "k", "trigger")
    graphs.edge("s", to: "p", "value")
    let engine = try FlowEngine(document: graphs.document, registry: LiveTestKinds.registry([script]))
    var sums = engine.values(of: "sum").makeAsyncIterator()
    var previous = engine.values(of: "p").makeAsyncIterator()
    script.send(.number(2))
    #expect(await sums.nextOutputs() == ["total": .number(2)])
    #expect(
      await previous.nextOutputs() == ["value": .number(-1)], "previous gives initial in the pass of the first value")
    script.send(.number(2))
    #expect(await sums.nextOutputs() == ["total": .number(4)], "two equal lines are summed twice")
    #expect(await previous.nextOutputs() == ["value": .number(2)])
    script.send(.number(3))
    #expect(await sums.nextOutputs() == ["total": .number(7)])
    #expect(await engine.outputs(of: "k") == ["count": .integer(3)])
    script.finish()
    await engine.waitForLiveSources()
    engine.shutDown()
  }

  @Test func twoSourcesAreNeverMerged() async throws {
    var graphs = Graphs()
    graphs.node("a", "range", ["count": .number(2_000)])
    graphs.node("b", "range", ["count": .number(3_000)])
    graphs.node("both", "add")
    graphs.edge("a", to: "both", "a")
    graphs.edge("b", to: "both", "b")
    graphs.node("passesA", "counter")
    graphs.edge("a", to: "passesA", "trigger")
    graphs.node("passesB", "counter")
    graphs.edge("b", to: "passesB", "trigger")
    graphs.node("sumA", "accumulate")
    graphs.edge("a", to: "sumA", "value")
    let engine = try FlowEngine(
      document: graphs.document, registry: LiveTestKinds.registry(),
      options: EngineOptions(emissionBufferCapacity: 8))
    await engine.waitForLiveSources()
    #expect(await engine.outputs(of: "both") == ["result": .number(5_000)])
    #expect(await engine.outputs(of: "sumA") == ["total": .number(2_001_000)])
    #expect(await engine.outputs(of: "passesA") == ["count": .integer(2_000)], "one pass per emission of a")
    #expect(await engine.outputs(of: "passesB") == ["count": .integer(3_000)], "one pass per emission of b")
    #expect(engine.processedEmissionCount == 5_000)
    engine.shutDown()
  }

  @Test func liveStateRoundTripsThroughTheDocument() async throws {
    let clock = ManualClock()
    let engine = try FlowEngine(document: Self.clockAndCounter(), registry: .standard, clock: clock)
    var values = engine.values(of: "k").makeAsyncIterator()
    for count in 1...3 { await Self.tick(clock, &values, expect: Int64(count)) }
    let saved = await engine.documentWithLiveState()
    engine.shutDown()
    #expect(saved.liveState["c"] == .number(3) && saved.liveState["k"] == .number(3))
    let reloaded = try FlowDocument(jsonBytes: Array(saved.jsonString().utf8))
    #expect(reloaded.liveState == saved.liveState)
    let clock2 = ManualClock()
    let resumed = try FlowEngine(document: reloaded, registry: .standard, clock: clock2)
    var resumedValues = resumed.values(of: "k").makeAsyncIterator()
    await resumed.evaluate()
    #expect(await Self.state(resumed, "k") == .number(3))
    await Self.tick(clock2, &resumedValues, expect: 4)
    #expect(await resumed.outputs(of: "c") == ["tick": .integer(4)], "the clock resumes after the saved tick")
    resumed.shutDown()
  }

  @Test func unreadableSavedStateFailsTheNodeNamingIt() async throws {
    var document = Self.clockAndCounter()
    document.liveState = ["k": .string("many"), "c": .number(-3)]
    let engine = try FlowEngine(document: document, registry: .standard, clock: ManualClock())
    await engine.evaluate()
    let failures = await engine.failures()
    #expect(failures["k"]?.contains("node 'k'") == true, "\(failures)")
    #expect(failures["c"]?.contains("node 'c'") == true, "\(failures)")
    #expect(engine.runningSourceCount == 0, "a source with unreadable state does not start")
    engine.shutDown()
  }

  @Test func onDemandSourcesRunOnlyWhileObserved() async throws {
    let script = SourceScript("s", policy: .onDemand)
    var graphs = Graphs()
    graphs.node("s", "s")
    graphs.node("sum", "accumulate")
    graphs.edge("s", to: "sum", "value")
    let engine = try FlowEngine(
      document: graphs.document, registry: LiveTestKinds.registry([script]),
      options: EngineOptions(demandDriven: true))
    await engine.evaluate()
    #expect(engine.runningSourceCount == 0, "nothing observes it")
    #expect(await engine.liveNodes().first { $0.id == "s" }?.isRunning == false)
    let handle = engine.observe("sum")
    await engine.evaluate()
    #expect(engine.runningSourceCount == 1)
    #expect(await engine.liveNodes().first { $0.id == "s" }?.isRunning == true)
    var sums = engine.values(of: "sum").makeAsyncIterator()
    script.send(.number(4))
    #expect(await sums.nextOutputs() == ["total": .number(4)])
    handle.cancel()
    await engine.evaluate()
    await engine.waitUntilNoSourceRuns()
    #expect(engine.runningSourceCount == 0)
    #expect(await engine.liveNodes().first { $0.id == "s" }?.isRunning == false)
    engine.shutDown()
  }

  @Test func aPolicyParamOverridesTheKindsDefault() throws {
    let spec = NodeSpec(kind: "clock", params: ["policy": .string("onDemand")])
    guard case .success(let configured) = NodeKindRegistry.standard.configure(spec) else {
      Issue.record("policy is a param of live kinds")
      return
    }
    #expect(configured.instance.live?.policy == .onDemand)
    let bad = NodeKindRegistry.standard.configure(NodeSpec(kind: "clock", params: ["policy": .string("sometimes")]))
    guard case .failure(.invalidParameters(let problems)) = bad else {
      Issue.record("an unknown policy is rejected")
      return
    }
    #expect(problems.map(\.parameter) == ["policy"])
    let notLive = NodeKindRegistry.standard.configure(NodeSpec(kind: "add", params: ["policy": .string("onDemand")]))
    guard case .failure = notLive else {
      Issue.record("policy is not a param of kinds that are not live")
      return
    }
  }
}
