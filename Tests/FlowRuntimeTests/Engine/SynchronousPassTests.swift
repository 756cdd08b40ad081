import FlowGraph
import FlowNodes
import FlowNodesTestSupport
@testable import FlowRuntime
import FlowTestSupport
import Testing

/// Cheap store changes evaluated on the mutating thread (`EngineOptions.runsCheapPassesSynchronously`):
/// published before the mutation returns, with the runner task kept for everything else.
///
/// The time limit detects a lost wake-up (an `evaluate()` suspended forever); it is generous
/// because these suites share two cores with every other suite, under ThreadSanitizer too.
@Suite(.timeLimit(.minutes(10))) struct SynchronousPassTests {
  /// A cheap kind that calls `onRun` with its input `a` and passes it through.
  struct Probe: StaticNodeKind {
    let name: String
    let onRun: @Sendable (Double) -> Void
    var summary: String { "result = a; tells the test it ran" }
    var inputs: [InputPort] { [InputPort("a", .number, default: .number(0))] }
    var outputs: [PortDeclaration] { [PortDeclaration("result", .number)] }

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      if case .number(let value) = inputs[0] { onRun(value) }
      outputs[0] = inputs[0]
    }
  }

  /// Synchronous passes with a budget no test pass reaches: a loaded machine that preempts the
  /// thread mid-pass must not turn a test's synchronous pass into a handed-over one.
  static var synchronous: EngineOptions {
    var options = EngineOptions()
    options.synchronousPassBudget = .seconds(600)
    return options
  }

  static func noRunner(_ engine: FlowEngine) -> Bool { engine.core.state.withLock { $0.runner == nil } }

  /// ```
  /// test thread: set x ─ pass [x, sum, twice] ─ publish ─ return │ lastReport, values: already there
  /// runner:      (never started)
  /// ```
  @Test func aCheapUpdatePublishesBeforeUpdateNodeReturns() async throws {
    let engine = try FlowEngine(document: FlowEngineTests.calculator(), registry: .standard, options: Self.synchronous)
    await engine.evaluate()
    var values = engine.values(of: "twice").makeAsyncIterator()
    #expect(await values.next()?.outputs == ["result": .number(10)])
    var reports = engine.reports.makeAsyncIterator()
    #expect(await reports.next()?.revision == engine.store.revision, "the first pass's report first")
    try FlowEngineTests.setNumber(engine.store, "x", 5)
    // No suspension point since `updateNode` returned: the pass ran on this thread.
    let report = try #require(engine.lastReport)
    #expect(report.revision == engine.store.revision && !report.wasCancelled)
    #expect(Set(report.ran) == ["x", "sum", "twice"])
    #expect(Self.noRunner(engine))
    #expect(await values.next()?.outputs == ["result": .number(16)])
    #expect(await reports.next()?.revision == report.revision)
    let waited = try #require(await engine.evaluate())
    #expect(waited.revision == report.revision && Set(waited.ran) == ["x", "sum", "twice"])
    #expect(await engine.outputs(of: "other") == ["result": .number(4)], "y's branch did not run and kept its value")
  }

  @MainActor @Test func theMainActorRunsACheapPassAndEvaluateReturnsAtOnce() async throws {
    let engine = try FlowEngine(document: FlowEngineTests.calculator(), registry: .standard, options: Self.synchronous)
    await engine.evaluate()
    for step in 1...50 {
      try FlowEngineTests.setNumber(engine.store, "y", Double(step))
      #expect(engine.lastReport?.revision == engine.store.revision)
      let report = try #require(await engine.evaluate())
      #expect(Set(report.ran) == ["y", "sum", "twice", "other"])
    }
    #expect(await engine.outputs(of: "twice") == ["result": .number(104)])
  }

  @Test func turnedOffEveryPassRunsOnTheRunner() async throws {
    let engine = try FlowEngine(
      document: FlowEngineTests.calculator(), registry: .standard,
      options: EngineOptions(runsCheapPassesSynchronously: false))
    await engine.evaluate()
    try FlowEngineTests.setNumber(engine.store, "x", 5)
    let report = try #require(await engine.evaluate())
    #expect(Set(report.ran) == ["x", "sum", "twice"])
    #expect(await engine.outputs(of: "twice") == ["result": .number(16)])
  }

  typealias Phase = EngineState.Machine.Phase

  /// The engine's phase, read by a node while it runs: `.runningSynchronously` on the mutating
  /// thread, `.running` on the runner. The engine is set once built (and cleared at the end:
  /// the box closes a cycle engine → registry → probe → box).
  final class PhaseLog: Sendable {
    let engine = Locked<FlowEngine?>(nil)
    let phases = Locked<[Phase]>([])

    func record() {
      guard let engine = engine.withLock({ $0 }) else { return }
      let phase = engine.core.state.withLock { $0.machine.phase }
      phases.withLock { $0.append(phase) }
    }

    func take() -> [Phase] {
      phases.withLock { phases in
        defer { phases.removeAll() }; return phases
      }
    }
  }

  /// More dirty nodes than `synchronousPassLimit` (a batch of 3 updates, limit 2): the runner.
  @Test func aChangeDirtyingMoreThanTheLimitGoesToTheRunner() async throws {
    var options = Self.synchronous
    options.synchronousPassLimit = 2
    let log = PhaseLog()
    var registry = NodeKindRegistry.standard
    registry.register(Probe(name: "probe") { _ in log.record() })
    var graphs = Graphs()
    for index in 0..<3 {
      graphs.number("n\(index)", 0)
      graphs.node("p\(index)", "probe")
      graphs.edge("n\(index)", to: "p\(index)", "a")
    }
    let engine = try FlowEngine(document: graphs.document, registry: registry, options: options)
    defer { log.engine.withLock { $0 = nil } }
    await engine.evaluate()
    log.engine.withLock { $0 = engine }
    try FlowEngineTests.setNumber(engine.store, "n0", 1)
    #expect(log.take() == [.runningSynchronously], "one dirty node: synchronous")
    let nodes = (0..<3).compactMap { engine.store.node(id: "n\($0)") }
    try engine.store.batch { batch throws(GraphValidationError) in
      for var node in nodes {
        node.data.params["value"] = .number(2)
        try batch.updateNode(node)
      }
    }
    let report = try #require(await engine.evaluate())
    #expect(Set(report.ran) == ["n0", "n1", "n2", "p0", "p1", "p2"])
    #expect(log.take() == [.running, .running, .running], "three dirty nodes: the runner")
  }

  /// A pass that stops at its budget (here: told to stop by a node) hands the rest to the
  /// runner, which publishes one report for the revision with every node once, in order.
  ///
  /// ```
  /// test thread: set x ─ x, c0…c9, trip (signals) ··· stop ─ hand over ─ return
  /// runner:                                                  … t0…t9 ─ publish one report
  /// ```
  @Test func aPassStoppedOnTheMutatingThreadIsContinuedByTheRunnerInOneReport() async throws {
    let log = PhaseLog()
    let armed = Locked(false)
    var registry = NodeKindRegistry.standard
    registry.register(
      Probe(name: "trip") { _ in
        log.record()
        if armed.withLock({ $0 }) { log.engine.withLock { $0 }?.core.signalSupersession() }
      })
    registry.register(Probe(name: "probe") { _ in log.record() })
    var graphs = Graphs()
    graphs.number("x", 0)
    var previous = "x"
    for index in 0..<10 {
      graphs.node("c\(index)", "add", ["b": 1])
      graphs.edge(previous, to: "c\(index)", "a")
      previous = "c\(index)"
    }
    graphs.node("trip", "trip")
    graphs.edge(previous, to: "trip", "a")
    previous = "trip"
    for index in 0..<10 {
      graphs.node("t\(index)", "add", ["b": 1])
      graphs.edge(previous, to: "t\(index)", "a")
      previous = "t\(index)"
    }
    graphs.node("end", "probe")
    graphs.edge(previous, to: "end", "a")
    let engine = try FlowEngine(document: graphs.document, registry: registry, options: Self.synchronous)
    defer { log.engine.withLock { $0 = nil } }
    await engine.evaluate()
    log.engine.withLock { $0 = engine }
    var reports = engine.reports.makeAsyncIterator()
    var first = engine.values(of: "c0").makeAsyncIterator()
    var last = engine.values(of: "end").makeAsyncIterator()
    #expect(await first.next()?.outputs == ["result": .number(1)])
    #expect(await last.next()?.outputs == ["result": .number(20)])
    armed.withLock { $0 = true }
    try FlowEngineTests.setNumber(engine.store, "x", 100)
    let report = try #require(await engine.evaluate())
    #expect(log.take() == [.runningSynchronously, .running], "trip ran on the mutating thread, end on the runner")
    let chain = ["x"] + (0..<10).map { "c\($0)" } + ["trip"] + (0..<10).map { "t\($0)" } + ["end"]
    #expect(report.ran == chain && !report.wasCancelled && report.revision == engine.store.revision)
    let streamed = try #require(await reports.next())
    #expect(streamed.ran == chain && !streamed.wasCancelled, "no report of the interrupted part alone")
    // c0 changed in the handed-over part, end in the runner's: both are published.
    #expect(await first.next()?.outputs == ["result": .number(101)])
    #expect(await last.next()?.outputs == ["result": .number(120)])
  }

  @Test func graphsWithExpensiveOrLiveNodesAreNotEvaluatedSynchronously() throws {
    var cheap = Graphs()
    cheap.number("x", 1)
    cheap.node("d", "multiply", ["b": 2])
    cheap.edge("x", to: "d", "a")
    #expect(try cheap.evaluator().admitsSynchronousPasses)
    var expensive = cheap
    expensive.node("s", "slow")
    expensive.edge("x", to: "s", "a")
    let gate = Gate()
    gate.open()
    #expect(
      try !GraphEvaluator(validating: expensive.document, registry: TestKinds.registry(gate: gate))
        .admitsSynchronousPasses)
    var live = cheap
    live.node("r", "range", ["count": 3])
    #expect(try !GraphEvaluator(validating: live.document, registry: LiveTestKinds.registry()).admitsSynchronousPasses)
  }

  /// ```
  /// task 0..3:  update n_i ─ evaluate ─ …   (synchronous passes, or queued behind another's)
  /// main actor: update n4 ─ evaluate ─ …
  /// trigger:    invalidate d4 ─ …           (runner passes between the synchronous ones)
  /// consumer:   values(d0): never decreases, ends at its final value
  /// ```
  /// Every `evaluate()` returns (the time limit fails a lost wake-up; a double resume traps)
  /// with a revision at least the one its update made, and no stream goes backwards.
  @Test func roundTripsFromTasksTheMainActorAndTriggersAllReturnInOrder() async throws {
    let count = 400
    let engine = try FlowEngine(document: FlowEngineWakeUpTests.numbers(5), registry: .standard)
    await engine.evaluate()
    let stream = engine.values(of: "d0")
    let consumer = Task {
      var last = -1.0
      for await state in stream {
        guard case .number(let value)? = state.outputs?["result"] else { continue }
        #expect(value >= last, "d0 went back from \(last) to \(value)")
        last = value
        if value == Double(2 * count) { return true }
      }
      return false
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<4 {
        group.addTask { try await Self.roundTrips(engine, node: index, count: count) }
      }
      group.addTask { try await Self.mainActorRoundTrips(engine, count: count) }
      group.addTask {
        for _ in 0..<count {
          engine.invalidate("d4")
          await Task.yield()
        }
      }
      try await group.waitForAll()
    }
    let last = try #require(await engine.evaluate())
    #expect(last.revision == engine.store.revision)
    #expect(await consumer.value, "d0's final value was published")
    for index in 0..<5 { #expect(await engine.outputs(of: "d\(index)") == ["result": .number(Double(2 * count))]) }
  }

  static func roundTrips(_ engine: FlowEngine, node: Int, count: Int) async throws {
    for step in 1...count {
      try FlowEngineTests.setNumber(engine.store, "n\(node)", Double(step))
      let revision = engine.store.revision
      let report = try #require(await engine.evaluate())
      #expect(report.revision >= revision && !report.wasCancelled)
    }
  }

  @MainActor static func mainActorRoundTrips(_ engine: FlowEngine, count: Int) async throws {
    try await roundTrips(engine, node: 4, count: count)
  }
}
