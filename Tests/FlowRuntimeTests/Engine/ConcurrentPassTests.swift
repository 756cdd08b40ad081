import FlowGraph
import FlowNodes
import FlowNodesTestSupport
import FlowRuntime
import FlowTestSupport
import Testing

/// Supersession, cancellation and ordering, driven by gates: no test sleeps or times anything.
/// Serialized: a closed gate holds one thread of the cooperative pool, so two at once could
/// starve the test tasks that open them on a two-core machine.
@Suite(.serialized) struct ConcurrentPassTests {
  /// x → gate → chain of 100 `add` nodes.
  static func gatedChain(gateKind: String = "gated") -> FlowDocument {
    var graphs = Graphs()
    graphs.number("x", 1)
    graphs.node("gate", gateKind)
    graphs.edge("x", to: "gate", "a")
    var previous = "gate"
    for index in 0..<100 {
      graphs.node("c\(index)", "add", ["b": 1])
      graphs.edge(previous, to: "c\(index)", "a")
      previous = "c\(index)"
    }
    return graphs.document
  }

  static func setX(_ engine: FlowEngine, _ value: Double) throws {
    var node = try #require(engine.store.node(id: "x"))
    node.data.params["value"] = .number(value)
    try engine.store.updateNode(node)
  }

  // runner: pass r0 [x, gate ···blocked··· | stops between nodes]  pass r1 [x, gate, c0…c99]
  // test:            └ reached ── set x (r1) ── open gate ┘            evaluate() → r1
  @Test func aChangeDuringAPassSupersedesIt() async throws {
    let gate = Gate()
    let engine = try FlowEngine(document: Self.gatedChain(), registry: TestKinds.registry(gate: gate))
    var reports = engine.reports.makeAsyncIterator()
    var reached = gate.reached.makeAsyncIterator()
    await reached.next()
    try Self.setX(engine, 5)
    gate.open()
    let first = try #require(await reports.next())
    #expect(first.wasCancelled)
    #expect(first.ran.count < 102)
    let second = try #require(await reports.next())
    #expect(!second.wasCancelled)
    #expect(second.revision == engine.store.revision)
    #expect(Set(second.ran).contains("gate"))
    #expect(await engine.outputs(of: "c99") == ["result": .number(105)])
    #expect(engine.lastReport?.revision == second.revision)
  }

  // runner: pass r0 [x, gate ···blocked··· c0…c99] publish r0   pass r1 [x, gate, c0…c99]
  // test:            └ reached ── set x (r1) ── open ┘
  @Test func theQueuePolicyLetsTheRunningPassFinishFirst() async throws {
    let gate = Gate()
    let engine = try FlowEngine(
      document: Self.gatedChain(), registry: TestKinds.registry(gate: gate),
      policy: .queueAfterRunningPass)
    var reports = engine.reports.makeAsyncIterator()
    var reached = gate.reached.makeAsyncIterator()
    await reached.next()
    try Self.setX(engine, 5)
    gate.open()
    let first = try #require(await reports.next())
    #expect(!first.wasCancelled)
    #expect(first.ran.count == 102)
    let second = try #require(await reports.next())
    #expect(second.revision > first.revision)
    #expect(second.ran.count == 102)
    #expect(await engine.outputs(of: "c99") == ["result": .number(105)])
  }

  // runner: pass r0 [x, slow → child task ···waiting··· | cancelled]  pass r1 [x, slow, c0…c99]
  // child:               slow: gate ···(sees cancellation)→ throws
  // test:                └ reached ── set x (r1) ── (gate still shut) ── reached again ── open
  @Test func aSupersededPassCancelsItsRunningExpensiveNodes() async throws {
    let gate = Gate()
    let engine = try FlowEngine(document: Self.gatedChain(gateKind: "slow"), registry: TestKinds.registry(gate: gate))
    var reports = engine.reports.makeAsyncIterator()
    var reached = gate.reached.makeAsyncIterator()
    await reached.next()
    try Self.setX(engine, 5)
    let first = try #require(await reports.next())
    #expect(first.wasCancelled)
    #expect(!first.ran.contains("c0"))
    await reached.next()
    gate.open()
    let second = try #require(await reports.next())
    #expect(!second.wasCancelled)
    #expect(second.ran.contains("gate") && second.ran.contains("c99"))
    #expect(await engine.outputs(of: "c99") == ["result": .number(105)])
    #expect(await engine.failures().isEmpty)
  }

  @Test(arguments: [1, 2, 8])
  func resultsDoNotDependOnTheNumberOfConcurrentNodes(limit: Int) async throws {
    let gate = Gate()
    gate.open()
    var graphs = Graphs()
    graphs.number("x", 3)
    graphs.node("total", "expression", ["formula": "a + b + c + d"])
    for (index, port) in ["a", "b", "c", "d"].enumerated() {
      graphs.node("s\(index)", "slow")
      graphs.node("m\(index)", "multiply", ["b": .number(Double(index + 1))])
      graphs.edge("x", to: "s\(index)", "a")
      graphs.edge("s\(index)", to: "m\(index)", "a")
      graphs.edge("m\(index)", to: "total", port)
    }
    let registry = TestKinds.registry(gate: gate)
    var serial = try GraphEvaluator(
      validating: graphs.document, registry: registry,
      options: EngineOptions(runsExpensiveNodesConcurrently: false))
    serial.evaluate()
    var concurrent = try GraphEvaluator(
      validating: graphs.document, registry: registry,
      options: EngineOptions(maximumConcurrentNodes: limit))
    let report = await concurrent.evaluateConcurrently()
    #expect(report.evaluationCount == 10)
    #expect(Set(report.ran).count == 10)
    for id in serial.presentNodeIDs { #expect(concurrent.outputs(of: id) == serial.outputs(of: id)) }
    #expect(concurrent.value(of: "total", port: "result") == .number(30))
    #expect(report.durations.keys.contains("s0"))
  }

  @Test func reportsArePublishedInRevisionOrderUnderConcurrentMutators() async throws {
    var graphs = Graphs()
    for index in 0..<8 {
      graphs.number("n\(index)", 0)
      graphs.node("sq\(index)", "multiply")
      graphs.edge("n\(index)", to: "sq\(index)", "a")
      graphs.edge("n\(index)", to: "sq\(index)", "b")
    }
    let engine = try FlowEngine(document: graphs.document, registry: .standard)
    let reports = engine.reports
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<8 {
        group.addTask {
          for step in 1...25 {
            guard var node = engine.store.node(id: "n\(index)") else { return }
            node.data.params["value"] = .number(Double(step))
            try? engine.store.updateNode(node)
          }
        }
      }
    }
    let final = try #require(await engine.evaluate())
    #expect(final.revision == engine.store.revision)
    engine.shutDown()
    var published: [Int] = []
    for await report in reports where !report.wasCancelled { published.append(report.revision) }
    #expect(published == published.sorted() && Set(published).count == published.count)
    #expect(published.last == final.revision)
    for index in 0..<8 { #expect(await engine.outputs(of: "sq\(index)") == ["result": .number(625)]) }
  }
}
