import FlowGraph
import FlowNodes
import FlowNodesTestSupport
import FlowRuntime
import FlowTestSupport
import Testing

/// `EngineOptions.publishInterval` on a running engine: real passes on the runner, held at a
/// gate one evaluation at a time, and the engine's time on a manual clock. (The state machine's
/// own tests drive long simulated bursts; this checks that the executor does what it says.)
extension ConcurrentPassTests {
  /// ```
  /// clock:  0                    10 ms                      70 ms
  /// runner: r0 ─ publish │ r1: g held ── superseded │ r2: g held ──────── completes, publishes (interval) │ r3
  ///                                                                    or superseded (no interval)
  /// test:   admit        │ x = 2 ─ x = 3 ─ admit             │ x = 4 ─ admit                        │ admit
  /// ```
  @Test(arguments: [true, false])
  func aChangeStopsTheRunningPassOnlyWhileTheLastPublicationIsRecent(withInterval: Bool) async throws {
    let gate = Gate()
    let clock = ManualClock()
    var graphs = Graphs()
    graphs.number("x", 1)
    graphs.node("g", "gated")
    graphs.edge("x", to: "g", "a")
    var options = EngineOptions(runsCheapPassesSynchronously: false)
    options.publishInterval = withInterval ? .milliseconds(50) : nil
    let engine = try FlowEngine(document: graphs.document, registry: TestKinds.registry(gate: gate),
                                options: options, clock: clock)
    var reached = gate.reached.makeAsyncIterator()
    var reports = engine.reports.makeAsyncIterator()

    await reached.next()
    gate.admitOne()
    let first = try #require(await reports.next())
    #expect(first.revision == 0 && !first.wasCancelled)

    try FlowEngineTests.setNumber(engine.store, "x", 2)
    await reached.next()
    clock.advance(by: .milliseconds(10))
    try FlowEngineTests.setNumber(engine.store, "x", 3)
    gate.admitOne()
    let second = try #require(await reports.next())
    #expect(second.revision == 1 && second.wasCancelled, "10 ms after a publication, a change supersedes")

    await reached.next()
    clock.advance(by: .milliseconds(60))
    try FlowEngineTests.setNumber(engine.store, "x", 4)
    gate.admitOne()
    let third = try #require(await reports.next())
    #expect(third.revision == 2)
    if withInterval {
      #expect(!third.wasCancelled, "70 ms after the last publication, the running pass completes")
      #expect(await engine.outputs(of: "g") == ["result": .number(3)], "a consistent state of revision 2")
    } else {
      #expect(third.wasCancelled, "without an interval every change supersedes")
    }

    await reached.next()
    gate.admitOne()
    let last = try #require(await reports.next())
    #expect(last.revision == 3 && !last.wasCancelled)
    #expect(await engine.outputs(of: "g") == ["result": .number(4)])
    engine.shutDown()
  }
}
