import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

/// `NodeState` as `state(of:)`, `outputs(of:)` and `values(of:)` tell it: a failed node shows no
/// outputs, a stream starts with the current state and then yields each change once, never a
/// stale one, and `evaluate()` with nothing changed returns the last pass's report.
@Suite struct NodeStateTests {
  /// `a / b → quotient`, `quotient + 1 → plus` (its failure is an upstream one), `c` alone;
  /// `b` is the unconnected input of `quotient` with `connected` false.
  static func division(connected: Bool = true) -> FlowDocument {
    var graphs = Graphs()
    graphs.number("a", 6)
    graphs.number("b", 3)
    graphs.node("quotient", "divide", connected ? [:] : ["b": 3])
    graphs.node("plus", "add", ["b": 1])
    graphs.number("c", 7)
    graphs.edge("a", to: "quotient", "a")
    if connected { graphs.edge("b", to: "quotient", "b") }
    graphs.edge("quotient", to: "plus", "a")
    return graphs.document
  }

  static let divisionByZero = NodeState.failed(message: "division by zero", root: "quotient")
  static let upstream = NodeState.failed(message: "upstream error from quotient", root: "quotient")

  @Test func anEvaluatorTellsNotComputedValueFailedAndValueAgain() throws {
    var evaluator = try Self.division(connected: false).evaluatorForTests()
    #expect(evaluator.state(of: "plus") == .notComputed, "before the first pass")
    #expect(evaluator.outputs(of: "plus") == nil)
    #expect(evaluator.state(of: "nothing") == nil)
    evaluator.evaluate()
    #expect(evaluator.state(of: "plus") == .value(["result": .number(3)]))

    try evaluator.setUnconnectedInput(#require(evaluator.input("quotient", "b")), to: .number(0))
    #expect(evaluator.state(of: "plus") == .value(["result": .number(3)]), "an edit shows in the next pass")
    evaluator.evaluate()
    #expect(evaluator.state(of: "quotient") == Self.divisionByZero)
    #expect(evaluator.state(of: "plus") == Self.upstream)
    #expect(evaluator.outputs(of: "quotient") == nil, "a failed node presents no outputs")
    #expect(evaluator.outputs(of: "plus") == nil)
    #expect(evaluator.value(of: "plus", port: "result") == nil)
    #expect(evaluator.state(of: "c") == .value(["value": .number(7)]), "an unrelated branch keeps its value")

    try evaluator.setUnconnectedInput(#require(evaluator.input("quotient", "b")), to: .number(2))
    evaluator.evaluate()
    #expect(evaluator.state(of: "quotient") == .value(["result": .number(3)]))
    #expect(evaluator.state(of: "plus") == .value(["result": .number(4)]))
  }

  @Test func anUnnecessaryNodeIsNotComputedUntilAPassComputesIt() throws {
    var evaluator = try Self.division(connected: false).evaluatorForTests(options: EngineOptions(demandDriven: true))
    evaluator.observe("plus")
    evaluator.evaluate()
    #expect(evaluator.state(of: "plus") == .value(["result": .number(3)]))
    #expect(evaluator.state(of: "c") == .notComputed, "never observed: skipped")
    evaluator.unobserve("plus")
    try evaluator.setUnconnectedInput(#require(evaluator.input("quotient", "b")), to: .number(2))
    evaluator.evaluate()
    #expect(evaluator.state(of: "quotient") == .notComputed, "skipped after its input changed: stale")
    #expect(evaluator.state(of: "plus") == .notComputed)
    #expect(evaluator.outputs(of: "plus") == nil, "no stale outputs")
    evaluator.observe("plus")
    #expect(evaluator.state(of: "plus") == .notComputed, "necessary again, not computed until the next pass")
    let report = evaluator.evaluate()
    #expect(Set(report.ran) == ["quotient", "plus"])
    #expect(evaluator.state(of: "plus") == .value(["result": .number(4)]))
  }

  @Test func aStreamMadeAfterASynchronousPassStartsWithItsResult() async throws {
    let engine = try FlowEngine(
      document: Self.division(), registry: .standard, options: SynchronousPassTests.synchronous)
    await engine.evaluate()
    try FlowEngineTests.setNumber(engine.store, "b", 0)  // evaluated before `updateNode` returns
    #expect(engine.lastReport?.revision == engine.store.revision, "the pass ran synchronously")
    var states = engine.values(of: "plus").makeAsyncIterator()
    #expect(await states.next()?.state == Self.upstream, "the current state first, nothing lost")
    #expect(await engine.state(of: "quotient") == Self.divisionByZero)
    #expect(await engine.outputs(of: "quotient") == nil)

    try FlowEngineTests.setNumber(engine.store, "b", 2)
    await engine.evaluate()
    #expect(await states.next()?.state == .value(["result": .number(4)]), "value again after the failure")
    try FlowEngineTests.setNumber(engine.store, "b", 0)
    await engine.evaluate()
    #expect(await states.next()?.state == Self.upstream)
    try FlowEngineTests.setNumber(engine.store, "b", 3)
    await engine.evaluate()
    try FlowEngineTests.setNumber(engine.store, "c", 8)  // leaves `plus` as it is
    await engine.evaluate()
    engine.shutDown()
    #expect(await states.next()?.state == .value(["result": .number(3)]))
    #expect(await states.next() == nil, "no element for a pass that did not change the node")
  }

  @Test func aStreamOfAPendingNodeYieldsPendingThenTheFirstValue() async throws {
    let clock = ManualClock()
    let engine = try FlowEngine(document: LiveEngineTests.clockAndCounter(), registry: .standard, clock: clock)
    await engine.evaluate()
    #expect(await engine.state(of: "k") == .pending)
    var states = engine.values(of: "k").makeAsyncIterator()
    #expect(await states.next()?.state == .pending, "the current state first")
    await clock.waitForSleepers()
    clock.advance(by: .seconds(1))
    #expect(await states.next()?.state == .value(["count": .integer(1)]))
    #expect(await engine.state(of: "k") == .value(["count": .integer(1)]))
    engine.shutDown()
    #expect(await states.next() == nil)
  }

  @Test func aStreamFollowsANodeFromUnnecessaryToNecessaryAndBack() async throws {
    let engine = try FlowEngine(
      document: Self.division(), registry: .standard, options: EngineOptions(demandDriven: true))
    await engine.evaluate()
    var states = engine.values(of: "plus").makeAsyncIterator()
    #expect(await states.next()?.state == .notComputed, "nobody observes it: not computed")
    let handle = engine.observe("plus")
    #expect(await states.next()?.state == .value(["result": .number(3)]), "computed once necessary")
    handle.cancel()
    try FlowEngineTests.setNumber(engine.store, "b", 2)
    await engine.evaluate()
    #expect(await states.next()?.state == .notComputed, "its input changed while unnecessary: stale")
    let again = engine.observe("plus")
    #expect(await states.next()?.state == .value(["result": .number(4)]))
    again.cancel()
    engine.shutDown()
    #expect(await states.next() == nil)
  }

  @Test func evaluateWithNothingChangedReturnsTheLastPassesReport() async throws {
    let engine = try FlowEngine(document: Self.division(), registry: .standard)
    let first = try #require(await engine.evaluate())
    try FlowEngineTests.setNumber(engine.store, "b", 2)
    let second = try #require(await engine.evaluate())
    #expect(second.revision == first.revision + 1 && second.revision == engine.store.revision)
    #expect(second.ran == ["b", "quotient", "plus"])
    try FlowEngineTests.setNumber(engine.store, "b", 2)  // identical: the store makes no revision
    let again = try #require(await engine.evaluate())
    #expect(engine.store.revision == second.revision)
    #expect(again.revision == second.revision, "no pass ran: the report of the pass that completed this revision")
    #expect(again.ran == second.ran)
    #expect(await engine.evaluationCount(of: "quotient") == 2)
    engine.shutDown()
  }
}

extension FlowDocument {
  /// A standard-kinds evaluator of the document (validated first).
  func evaluatorForTests(options: EngineOptions = EngineOptions()) throws -> GraphEvaluator {
    try GraphEvaluator(validating: self, registry: .standard, options: options)
  }
}
