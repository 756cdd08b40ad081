import FlowNodes
import FlowRuntime

/// W15: 100,000 nodes behind an `if` whose untaken branch holds 99,000 of them. A pass after the
/// source changes costs what the taken branch costs: the same pass on the graph without the
/// untaken branch is the reference (target ≤ 1.2×).
enum W15Lazy {
  static let taken = 1_000
  static let untaken = 99_000

  /// The registry of the workload kinds plus `if`.
  static var registry: NodeKindRegistry {
    var registry = BenchKinds.registry
    if let kind = NodeKindRegistry.standard.kind(named: "if") { registry.register(kind) }
    return registry
  }

  /// source → `taken` add1 → if.then; source → `untaken` add1 → if.else (when `untaken` > 0);
  /// a `source` node `cond` (1: then) → if.condition.
  static func graph(untaken: Int) -> BenchGraph {
    var graph = BenchGraph()
    let source = graph.node("source")
    let condition = graph.node("source", ["value": .number(1)])
    func chain(_ length: Int) -> String {
      var previous = source
      for _ in 0..<length {
        let next = graph.node("add1")
        graph.edge(previous, to: next, "a")
        previous = next
      }
      return previous
    }
    let then = chain(taken)
    let otherwise = untaken > 0 ? chain(untaken) : nil
    let pick = graph.node("if")
    graph.edge(condition, to: pick, "condition")
    graph.edge(then, to: pick, "then")
    if let otherwise { graph.edge(otherwise, to: pick, "else") }
    return graph
  }

  static func run() throws {
    var medians: [String: Double] = [:]
    for (variant, untakenCount) in [("without the untaken branch", 0), ("with the untaken branch", untaken)] {
      let document = graph(untaken: untakenCount).document
      var evaluator = try GraphEvaluator(validating: document, registry: registry)
      evaluator.evaluate()
      let source = evaluator.input("n0", "value")!
      var ran = 0
      let update = try Harness.measure(inner: 50) { iteration in
        try evaluator.setUnconnectedInput(source, to: .integer(Int64(iteration % 2)))
        ran = evaluator.evaluate().evaluationCount
      }
      Harness.check(ran == taken + 2, "W15 \(variant) ran \(ran)")
      Harness.check(
        evaluator.value(of: "n\(taken + untakenCount + 2)", port: "value")
          == .integer(Int64(taken) + evaluator.integer("n0", "value")), "W15 \(variant) value")
      Harness.emit(
        workload: "W15", metric: "incremental (source changed)", update, nodes: ran, variant: variant, inner: 50,
        note: "the if takes then (\(taken) nodes); else holds \(untakenCount)")
      medians[variant] = update.median
    }
    if let with = medians["with the untaken branch"], let without = medians["without the untaken branch"], without > 0 {
      print(
        "{\"peer\": \"FlowRuntime\", \"workload\": \"W15\", \"metric\": \"ratio with/without the untaken branch\", "
          + "\"value\": \((with / without * 100).rounded() / 100), \"target\": 1.2}")
    }
  }
}
