import FlowRuntime

/// W3: the 100,000-node random DAG; full evaluation, W3a (14,099 descendants) and W3b (2).
enum W3RandomDAG {
  static let sum: Int64 = 5_027_204_142
  static let sumAfterW3a: Int64 = 5_027_220_232
  static let sumAfterW3b: Int64 = 5_027_204_145

  static func checksum(_ evaluator: GraphEvaluator) -> Int64 {
    var total: Int64 = 0
    for index in 0..<100_000 { total += evaluator.integer("n\(index)", index < 1_000 ? "value" : "result") }
    return total
  }

  static func run() async throws {
    let (graph, pick) = BenchGraph.randomDAG()
    Harness.check(pick == 437, "W3 pick \(pick)")
    var evaluator = graph.evaluator()
    let build = Harness.measure(inner: 1) { _ in evaluator = graph.evaluator() }
    Harness.emit(
      workload: "W3", metric: "build", build, nodes: 100_000,
      note: "from a prebuilt document: validation (ids, kinds, handles, cycles) + engine graph")
    let full = Harness.measure(inner: 10) { _ in
      evaluator.invalidateAll()
      evaluator.evaluate()
    }
    Harness.check(checksum(evaluator) == sum, "W3 checksum \(checksum(evaluator))")
    Harness.emit(
      workload: "W3", metric: "full eval", full, nodes: 100_000, inner: 10, note: "repeated runs on one graph")

    // The same evaluator with concurrency on: the cost gate must keep these cheap nodes inline.
    evaluator.options.runsExpensiveNodesConcurrently = true
    let parallelFull = await Harness.measure(inner: 10) { _ in
      evaluator.invalidateAll()
      await evaluator.evaluateConcurrently()
    }
    Harness.check(checksum(evaluator) == sum, "W3 parallel checksum")
    Harness.emit(
      workload: "W3", metric: "full eval", parallelFull, nodes: 100_000,
      variant: "concurrency on (cheap nodes gated inline)", inner: 10,
      extra: ["ratio_vs_serial": Harness.format(parallelFull.median / full.median, 3)])
    let memory = evaluator.memoryFootprint
    Harness.emit(
      workload: "W3", metric: "memory", Stat([0]), nodes: nil,
      note: "engine state \(memory.bytes) bytes = \(memory.bytes / 100_000) B/node",
      extra: ["bytes_per_node": "\(memory.bytes / 100_000)"])
    try await storeAndEngineMemory(graph)

    for (label, source, descendants, changedSum) in [("W3a", 437, 14_099, sumAfterW3a), ("W3b", 545, 2, sumAfterW3b)] {
      let input = evaluator.input("n\(source)", "value")!
      let base = Int64(source + 1)
      let inner = descendants > 100 ? 200 : 20_000
      var ran = 0
      var cutOff = 0
      let update = try Harness.measure(inner: inner) { iteration in
        try evaluator.setUnconnectedInput(input, to: .integer(iteration % 2 == 0 ? base + 1 : base))
        let report = evaluator.evaluate()
        ran = report.evaluationCount
        cutOff = report.cutOff.count
      }
      // The source node runs too: descendants + 1 evaluations.
      Harness.check(ran == descendants + 1, "\(label) ran \(ran), expected \(descendants + 1)")
      Harness.check(cutOff == 0, "\(label) cut off \(cutOff)")
      try evaluator.setUnconnectedInput(input, to: .integer(base + 1))
      evaluator.evaluate()
      Harness.check(checksum(evaluator) == changedSum, "\(label) checksum \(checksum(evaluator))")
      try evaluator.setUnconnectedInput(input, to: .integer(base))
      evaluator.evaluate()
      Harness.check(checksum(evaluator) == sum, "\(label) checksum restored")
      Harness.emit(
        workload: label, metric: "incremental (source \(source), \(descendants) descendants)", update,
        nodes: descendants, variant: "GraphEvaluator (heap/bitset queue + cutoff)", inner: inner,
        note: "recomputed exactly \(descendants) descendants (+ the source node)",
        extra: ["exact_affected_set": "true"])
      try await EndToEnd.measureSourceUpdates(
        workload: label, metric: "incremental (source \(source), \(descendants) descendants)",
        graph: graph, source: "n\(source)", expectedRuns: descendants + 1,
        base: base, inner: descendants > 100 ? 20 : 200)
    }
  }

  /// The memory row of a `FlowStore` and the `FlowEngine` over it, together (target ≤ 600 B/node).
  static func storeAndEngineMemory(_ graph: BenchGraph) async throws {
    let store = try FlowStore(catalog: BenchKinds.registry, document: graph.document)
    let engine = try FlowEngine(store: store, registry: BenchKinds.registry)
    await engine.evaluate()
    let storeBytes = store.memoryFootprint.bytes
    let engineBytes = await engine.memoryFootprint.bytes
    engine.shutDown()
    Harness.emit(
      workload: "W3", metric: "memory", Stat([0]), nodes: nil, variant: "store + engine",
      note: "FlowStore \(storeBytes / 100_000) B/node + FlowEngine \(engineBytes / 100_000) B/node",
      extra: [
        "bytes_per_node": "\((storeBytes + engineBytes) / 100_000)",
        "store_bytes_per_node": "\(storeBytes / 100_000)", "engine_bytes_per_node": "\(engineBytes / 100_000)"
      ])
  }
}
