import FlowNodes
import FlowRuntime

/// WExpr: the cost of an `expression` node against an `add` node. Two chains of 10,000 nodes
/// of the standard kinds, each node fed by the previous one: `add` (`a + b`, `b` = 1) and
/// `expression` with the formula `a + 1`; plus a chain of `expression` nodes with a longer
/// formula (`(a * 3 + 1) / 2 - a`) to show the per-instruction cost. Full evaluation, all
/// nodes invalidated; the metric of interest is ns per node of each chain.
enum WExpr {
  static let length = 10_000

  static func run() async throws {
    let variants: [(name: String, kind: String, params: JSONObject, expected: Double)] = [
      ("add (a + b, b = 1)", "add", ["b": .number(1)], Double(length)),
      ("expression \"a + 1\"", "expression", ["formula": .string("a + 1")], Double(length)),
      (
        "expression \"(a * 3 + 1) / 2 - a\"", "expression", ["formula": .string("(a * 3 + 1) / 2 - a")],
        expectedLong()
      )
    ]
    for variant in variants {
      var graph = BenchGraph()
      var previous = graph.node("number", ["value": .number(0)])
      for _ in 0..<length {
        let next = graph.node(variant.kind, variant.params)
        graph.edge(previous, to: next, "a")
        previous = next
      }
      var evaluator: GraphEvaluator
      do {
        evaluator = try GraphEvaluator(validating: graph.document, registry: .standard)
      } catch {
        fatalError("WExpr graph is invalid: \(error)")
      }
      let full = Harness.measure(inner: 50) { _ in
        evaluator.invalidateAll()
        evaluator.evaluate()
      }
      let last = evaluator.value(of: previous, port: "result")?.numberValue
      Harness.check(last == variant.expected, "WExpr \(variant.name): \(String(describing: last))")
      Harness.emit(
        workload: "WExpr", metric: "full eval", full, nodes: length + 1, variant: variant.name,
        inner: 50, note: "chain of \(length) nodes after one number node")
    }
  }

  /// The value at the end of the chain of `(a * 3 + 1) / 2 - a` nodes starting from 0.
  static func expectedLong() -> Double {
    var value = 0.0
    for _ in 0..<length { value = (value * 3 + 1) / 2 - value }
    return value
  }
}
