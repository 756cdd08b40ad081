import FlowRuntime

/// W5: source → clamp(0…10) → chain of 1,000 "+1"; moving the source 50 → 60 leaves the
/// clamp at 10, so early cutoff must skip the chain.
enum W5Cutoff {
  static func run() async throws {
    var graph = BenchGraph()
    let source = graph.node("source", ["value": .number(50)])
    let clamp = graph.node("clamp")
    graph.edge(source, to: clamp, "a")
    var previous = clamp
    for _ in 0..<1_000 {
      let next = graph.node("add1")
      graph.edge(previous, to: next, "a")
      previous = next
    }
    var evaluator = graph.evaluator()
    evaluator.evaluate()
    Harness.check(evaluator.integer(previous) == 1_010, "W5 full")
    let input = evaluator.input(source, "value")!
    var ran = 0
    var cutOff: [String] = []
    let update = try Harness.measure(inner: 20_000) { iteration in
      try evaluator.setUnconnectedInput(input, to: .integer(iteration % 2 == 0 ? 60 : 50))
      let report = evaluator.evaluate()
      ran = report.evaluationCount
      if iteration == 0 { cutOff = report.cutOff }
    }
    let skipped = ran == 2 && cutOff == [clamp]
    Harness.check(skipped, "W5 ran \(ran), cut off \(cutOff)")
    Harness.emit(
      workload: "W5", metric: "source 50->60 (clamp unchanged)", update, nodes: ran,
      variant: "GraphEvaluator (heap/bitset queue + cutoff)", inner: 20_000,
      note: skipped ? "skips chain (ran: source, clamp)" : "recomputes chain",
      extra: ["cutoff": skipped ? "true" : "false"])
  }
}
