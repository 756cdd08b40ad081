import FlowRuntime

/// The same updates through the whole embedding path: `FlowStore.updateNode` (validation,
/// change delivery) → `FlowEngine` (apply, pass — on the mutating thread when cheap, else on
/// the runner task — publish) → `await engine.evaluate()`.
enum EndToEnd {
  static func measureSourceUpdates(
    workload: String, metric: String, graph: BenchGraph, source: String,
    expectedRuns: Int, base: Int64 = 0, inner: Int,
    synchronous: Bool = true
  ) async throws {
    let engine = try FlowEngine(
      document: graph.document, registry: BenchKinds.registry,
      options: EngineOptions(
        runsExpensiveNodesConcurrently: false,
        runsCheapPassesSynchronously: synchronous))
    await engine.evaluate()
    guard var node = engine.store.node(id: source) else { fatalError("no source \(source)") }
    var ran = 0
    let stat = try await Harness.measure(inner: inner) { iteration in
      node.data.params["value"] = .number(Double(base + (iteration % 2 == 0 ? 1 : 0)))
      try engine.store.updateNode(node)
      ran = await engine.evaluate()?.evaluationCount ?? -1
    }
    Harness.check(ran == expectedRuns, "\(workload) end-to-end ran \(ran), expected \(expectedRuns)")
    Harness.emit(
      workload: workload, metric: metric, stat, nodes: ran,
      variant: "FlowStore.updateNode + FlowEngine pass" + (synchronous ? "" : ", always on the runner task"),
      inner: inner, note: "end to end: store validation, change delivery, pass (synchronous when cheap), publish")
    engine.shutDown()
  }
}
