import FlowGraph
import FlowNodes
import FlowNodesTestSupport
import FlowRuntime
import FlowTestSupport
import Testing

/// A live source behind a lazy input starts only once a pass needs it, and keeps running
/// afterwards. Time is a `ManualClock`; nothing sleeps.
@Suite struct LazyLiveSourceTests {
  /// `if(cond, clock c, seven)`: the clock feeds only the branch taken when `cond` is non-zero.
  static func document(condition: Double, counted: Bool = false) -> FlowDocument {
    var graphs = Graphs()
    graphs.number("cond", condition)
    graphs.node("c", "clock", ["interval": .number(1)])
    graphs.number("seven", 7)
    graphs.node("pick", "if")
    graphs.edge("cond", to: "pick", "condition")
    graphs.edge("c", to: "pick", "then")
    graphs.edge("seven", to: "pick", "else")
    if counted {
      graphs.node("k", "counter")
      graphs.edge("c", to: "k", "trigger")
    }
    return graphs.document
  }

  @Test func aSourceOnlyTheUntakenBranchReachesNeverStarts() async throws {
    let engine = try FlowEngine(document: Self.document(condition: 0), registry: .standard, clock: ManualClock())
    let first = try #require(await engine.evaluate())
    #expect(await engine.outputs(of: "pick") == ["value": .number(7)])
    #expect(first.notNeeded == ["c"])
    #expect(engine.runningSourceCount == 0, "the clock behind the branch not taken does not start")
    try FlowEngineTests.setNumber(engine.store, "seven", 8)
    let edit = try #require(await engine.evaluate())
    #expect(Set(edit.ran) == ["seven", "pick"])
    #expect(engine.runningSourceCount == 0)
    engine.shutDown()
  }

  @Test func aSourceStartsWhenTheBranchIsTakenAndKeepsRunning() async throws {
    let clock = ManualClock()
    let engine = try FlowEngine(document: Self.document(condition: 0), registry: .standard, clock: clock)
    await engine.evaluate()
    #expect(engine.runningSourceCount == 0)
    var values = engine.values(of: "pick").makeAsyncIterator()
    try FlowEngineTests.setNumber(engine.store, "cond", 1)
    let flipped = try #require(await engine.evaluate())
    #expect(!flipped.notNeeded.contains("c"))
    #expect(engine.runningSourceCount == 1, "the pass that needed the clock started it")
    await clock.waitForSleepers()
    clock.advance(by: .seconds(1))
    while let outputs = await values.nextOutputs() {
      if outputs == ["value": .integer(1)] { break }
    }
    #expect(await engine.outputs(of: "c") == ["tick": .integer(1)])
    try FlowEngineTests.setNumber(engine.store, "cond", 0)
    await engine.evaluate()
    #expect(await engine.outputs(of: "pick") == ["value": .number(7)])
    #expect(engine.runningSourceCount == 1, "once brought up, a source keeps running")
    engine.shutDown()
  }

  @Test func aSourceNeededEagerlyStartsAtOnce() async throws {
    let engine = try FlowEngine(
      document: Self.document(condition: 0, counted: true), registry: .standard,
      clock: ManualClock())
    await engine.evaluate()
    #expect(engine.runningSourceCount == 1, "the counter reads the clock through an eager input")
    engine.shutDown()
  }

  /// Demand-driven passes need only what is observed; a persistent source that reaches a node
  /// through eager inputs still runs unobserved, lazy inputs elsewhere in the graph or not.
  @Test func aPersistentSourceOutsideLazyBranchesRunsUnobserved() async throws {
    var options = EngineOptions()
    options.demandDriven = true
    let engine = try FlowEngine(
      document: Self.document(condition: 0, counted: true), registry: .standard,
      options: options, clock: ManualClock())
    await engine.evaluate()
    #expect(engine.runningSourceCount == 1)
    engine.shutDown()
  }
}
