import FlowRuntime

/// W3B: only W3b end to end (`FlowStore.updateNode` of source 545 → published values →
/// `await engine.evaluate()` returns), from a pool task and from the main actor, with more
/// updates per run than the W3 row, and from a pool task with synchronous passes off (every
/// pass on the runner task) for a same-run comparison: `flow-bench W3B`.
enum W3bEndToEnd {
  static let source = "n545"
  static let base: Int64 = 546

  static func run() async throws {
    let (graph, _) = BenchGraph.randomDAG()
    let metric = "incremental (source 545, 2 descendants)"
    try await EndToEnd.measureSourceUpdates(
      workload: "W3b", metric: metric, graph: graph, source: source,
      expectedRuns: 3, base: base, inner: 5_000)
    try await measureOnMainActor(metric: metric, graph: graph)
    // The same from a pool task with synchronous passes off: every pass wakes the runner.
    try await EndToEnd.measureSourceUpdates(
      workload: "W3b", metric: metric, graph: graph, source: source,
      expectedRuns: 3, base: base, inner: 5_000, synchronous: false)
  }

  /// The same round trips, each made on the main actor (an app's `updateNode` from its UI).
  @MainActor static func measureOnMainActor(metric: String, graph: BenchGraph) async throws {
    let engine = try FlowEngine(
      document: graph.document, registry: BenchKinds.registry,
      options: EngineOptions(runsExpensiveNodesConcurrently: false))
    await engine.evaluate()
    guard var node = engine.store.node(id: source) else { fatalError("no source \(source)") }
    let inner = 5_000
    var samples: [Double] = []
    var iteration = 0
    var ran = 0
    for run in 0..<(Harness.reps + 1) {
      let start = Harness.now()
      for _ in 0..<inner {
        node.data.params["value"] = .number(Double(base + (iteration % 2 == 0 ? 1 : 0)))
        try engine.store.updateNode(node)
        ran = await engine.evaluate()?.evaluationCount ?? -1
        iteration += 1
      }
      if run > 0 { samples.append(Double(Harness.now() - start) / Double(inner)) }
    }
    Harness.check(ran == 3, "W3b end-to-end on the main actor ran \(ran), expected 3")
    Harness.emit(
      workload: "W3b", metric: metric, Stat(samples), nodes: ran,
      variant: "FlowStore.updateNode + FlowEngine pass, on the main actor", inner: inner,
      note: "end to end from the main actor: store validation, change delivery, pass, publish")
    engine.shutDown()
  }
}
