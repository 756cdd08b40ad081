import Foundation
import FlowGraph
@testable import FlowNodes
@testable import FlowRuntime

/// Runs one node of a standard kind directly: configure it from params, hand it input values.
enum KindHarness {
  /// The outputs of a node of `kind` with `params`, given `inputs` in port order.
  ///
  /// - Throws: the node's error, or a `NodeConfigurationError` wrapped in `NodeError`.
  static func run(
    _ kind: String, _ params: JSONObject = [:], _ inputs: [Value] = [],
    environment: EvaluationEnvironment = EvaluationEnvironment()
  ) throws -> [Value] {
    var registry = NodeKindRegistry.standard
    registry.environment = environment
    let configured: ConfiguredNode
    switch registry.configure(NodeSpec(kind: kind, params: params)) {
    case .success(let node): configured = node
    case .failure(let failure): throw NodeError("configure \(kind): \(failure)")
    }
    var values = configured.unconnectedInputs
    for (index, value) in inputs.enumerated() { values[index] = value }
    var outputs = NodeOutputs([Value](repeating: .null, count: configured.instance.outputs.count))
    try configured.instance.evaluator.evaluate(NodeInputs(values), &outputs)
    return outputs.values
  }

  /// The first output of `run`, which must be a table; the node runs on `workers` threads
  /// (`EvaluationEnvironment.workers`; default the environment's).
  static func table(_ kind: String, _ params: JSONObject = [:], _ inputs: [Value] = [], workers: Int? = nil) throws
    -> Table
  {
    var environment = EvaluationEnvironment()
    if let workers { environment.workers = workers }
    guard case .table(let table) = try run(kind, params, inputs, environment: environment)[0] else {
      throw NodeError("\(kind) gave no table")
    }
    return table
  }

  /// The message of the error `body` throws, or `nil`.
  static func failure(_ body: () throws -> Any) -> String? {
    do {
      _ = try body()
      return nil
    } catch let error as NodeError {
      return error.message
    } catch {
      return String(describing: error)
    }
  }

  /// A fresh empty folder (canonical path) that the caller removes.
  static func temporaryFolder() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return FileAccessPolicy.canonical(url.path)
  }

  /// The rows of `table` as values.
  static func rows(_ table: Table) -> [[Value]] { (0..<table.rowCount).map(table.row) }
}
