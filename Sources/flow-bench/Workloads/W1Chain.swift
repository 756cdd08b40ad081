import FlowRuntime

/// W1: source → 10,000 "+1" nodes; every node recomputes when the source changes.
enum W1Chain {
  static let length = 10_000

  static func run() async throws {
    var evaluator = BenchGraph.chain(length).evaluator()
    let build = Harness.measure(inner: 3) { _ in evaluator = BenchGraph.chain(length).evaluator() }
    Harness.emit(
      workload: "W1", metric: "build", build, nodes: length + 1, inner: 3,
      note: "document + validation + engine graph")
    let full = Harness.measure(inner: 50) { _ in
      evaluator.invalidateAll()
      evaluator.evaluate()
    }
    Harness.check(evaluator.integer("n\(length)") == Int64(length), "W1 full")
    Harness.emit(
      workload: "W1", metric: "full eval", full, nodes: length + 1, inner: 50,
      note: "all nodes invalidated, one pass")
    let source = evaluator.input("n0", "value")!
    var ran = 0
    let update = try Harness.measure(inner: 200) { iteration in
      try evaluator.setUnconnectedInput(source, to: .integer(iteration % 2 == 0 ? 1 : 0))
      ran = evaluator.evaluate().evaluationCount
    }
    Harness.check(ran == length + 1, "W1 update ran \(ran)")
    Harness.check(
      evaluator.integer("n\(length)") == Int64(length) + evaluator.integer("n0", "value"), "W1 update value")
    Harness.emit(
      workload: "W1", metric: "incremental (source changed)", update, nodes: ran,
      variant: "GraphEvaluator (heap/bitset queue + cutoff)", inner: 200, note: "nodes includes the source node")
    try await EndToEnd.measureSourceUpdates(
      workload: "W1", metric: "incremental (source changed)",
      graph: BenchGraph.chain(length), source: "n0", expectedRuns: length + 1,
      inner: 20)
  }
}
