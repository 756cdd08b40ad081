import Foundation
import FlowRuntime

/// W7: the W3 graph as a saved document: encode; then load + validate (+ first evaluation),
/// against a plain `JSONSerialization` parse of the same bytes.
enum W7Load {
  static func run() async throws {
    let (graph, _) = BenchGraph.randomDAG()
    var bytes: [UInt8] = []
    let encode = Harness.measure { _ in bytes = Array(graph.document.jsonString().utf8) }
    Harness.emit(
      workload: "W7", metric: "encode document", encode, nodes: 100_000,
      note: "\(bytes.count / 1_000_000) MB pretty-printed, sorted keys (SwiftFlow's encoding)")
    let data = Data(bytes)
    let plain = Harness.measure { _ in _ = try? JSONSerialization.jsonObject(with: data) }
    Harness.emit(
      workload: "W7", metric: "JSONSerialization parse", plain, nodes: 100_000, variant: "Foundation reference")
    var loaded = FlowDocument()
    let parse = try Harness.measure { _ in loaded = try FlowDocument(jsonBytes: bytes) }
    Harness.check(loaded.nodes.count == 100_000 && loaded.edges.count == 198_000, "W7 parse")
    Harness.emit(
      workload: "W7", metric: "parse document", parse, nodes: 100_000, variant: "FlowDocument(jsonBytes:)",
      extra: ["ratio_vs_jsonserialization": Harness.format(parse.median / plain.median, 2)])
    let validate = try Harness.measure { _ in
      _ = try GraphEvaluator(validating: try FlowDocument(jsonBytes: bytes), registry: BenchKinds.registry)
    }
    Harness.emit(
      workload: "W7", metric: "load + validate", validate, nodes: 100_000,
      variant: "parse + validation + engine graph",
      extra: ["ratio_vs_jsonserialization": Harness.format(validate.median / plain.median, 2)])
    var total: Int64 = 0
    let first = try Harness.measure { _ in
      var evaluator = try GraphEvaluator(validating: try FlowDocument(jsonBytes: bytes), registry: BenchKinds.registry)
      evaluator.evaluate()
      total = W3RandomDAG.checksum(evaluator)
    }
    Harness.check(total == W3RandomDAG.sum, "W7 checksum \(total)")
    Harness.emit(
      workload: "W7", metric: "load + validate + first evaluation", first, nodes: 100_000,
      note: "timed including the checksum read of 100k outputs",
      extra: ["ratio_vs_jsonserialization": Harness.format(first.median / plain.median, 2)])
  }
}
