import FlowRuntime

/// W2: source → 10,000 independent "+1" nodes → one sum node with 10,000 inputs.
enum W2Fan {
  static let width = 10_000

  static func run() async throws {
    var evaluator = BenchGraph.fan(width).evaluator()
    let build = Harness.measure(inner: 1) { _ in evaluator = BenchGraph.fan(width).evaluator() }
    Harness.emit(workload: "W2", metric: "build", build, nodes: width + 2, note: "document + validation + engine graph")
    let sum = "n\(width + 1)"
    let full = Harness.measure(inner: 50) { _ in
      evaluator.invalidateAll()
      evaluator.evaluate()
    }
    Harness.check(evaluator.integer(sum) == Int64(width), "W2 full")
    Harness.emit(workload: "W2", metric: "full eval", full, nodes: width + 2, inner: 50)
    let source = evaluator.input("n0", "value")!
    var ran = 0
    let update = try Harness.measure(inner: 200) { iteration in
      try evaluator.setUnconnectedInput(source, to: .integer(iteration % 2 == 0 ? 1 : 0))
      ran = evaluator.evaluate().evaluationCount
    }
    Harness.check(ran == width + 2, "W2 update ran \(ran)")
    Harness.check(evaluator.integer(sum) == Int64(width) * (1 + evaluator.integer("n0", "value")), "W2 update value")
    Harness.emit(
      workload: "W2", metric: "incremental (source changed)", update, nodes: ran,
      variant: "GraphEvaluator (heap/bitset queue + cutoff)", inner: 200, note: "nodes includes the source node")
  }
}
