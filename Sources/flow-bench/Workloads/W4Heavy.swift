import FlowRuntime

/// W4: source → 64 heavy nodes (~5 ms each) → sum; the parallel speed-up on this machine.
enum W4Heavy {
  static let count = 64

  static func calibrate(targetMilliseconds: Double = 5) -> Int {
    var iterations = 100_000
    var elapsed = 0.0
    while true {
      let start = Harness.now()
      _ = busy(iterations, 1)
      elapsed = Double(Harness.now() - start) / 1e6
      if elapsed > 20 { break }
      iterations *= 2
    }
    var estimate = Int(Double(iterations) * targetMilliseconds / elapsed)
    let start = Harness.now()
    _ = busy(estimate, 1)
    elapsed = Double(Harness.now() - start) / 1e6
    estimate = max(1, Int(Double(estimate) * targetMilliseconds / elapsed))
    return estimate
  }

  static func run() async throws {
    let iterations = calibrate()
    let start = Harness.now()
    _ = busy(iterations, 1)
    let single = Double(Harness.now() - start)
    var graph = BenchGraph()
    let source = graph.node("source")
    let sum = graph.node("sum", ["count": .number(Double(count))])
    for index in 0..<count {
      let heavy = graph.node("heavy", ["iterations": .number(Double(iterations)), "seed": .number(Double(index))])
      graph.edge(source, to: heavy, "a")
      graph.edge(heavy, to: sum, "in\(index)")
    }
    let note = "single node \(Harness.format(single / 1e6, 2)) ms, \(iterations) LCG iterations"
    var serial = graph.evaluator(options: EngineOptions(runsExpensiveNodesConcurrently: false))
    serial.evaluate()
    let input = serial.input(source, "value")!
    let sequential = try Harness.measure { iteration in
      try serial.setUnconnectedInput(input, to: .integer(Int64(iteration % 2)))
      serial.evaluate()
    }
    Harness.emit(
      workload: "W4", metric: "64 heavy nodes + sum", sequential, nodes: count, variant: "serial (concurrency off)",
      note: note, extra: ["speedup": Harness.format(Double(count) * single / sequential.median, 2)])
    var concurrent = graph.evaluator()
    await concurrent.evaluateConcurrently()
    var ran = 0
    let parallel = try await Harness.measure { iteration in
      try concurrent.setUnconnectedInput(input, to: .integer(Int64(iteration % 2)))
      ran = await concurrent.evaluateConcurrently().evaluationCount
    }
    Harness.check(ran == count + 2, "W4 ran \(ran)")
    Harness.check(concurrent.integer(sum) == serial.integer(sum), "W4 parallel result differs from serial")
    Harness.emit(
      workload: "W4", metric: "64 heavy nodes + sum", parallel, nodes: count,
      variant: "expensive nodes in child tasks (\(EngineOptions().maximumConcurrentNodes) at once)", note: note,
      extra: ["speedup_vs_sequential": Harness.format(sequential.median / parallel.median, 2)])
  }
}
