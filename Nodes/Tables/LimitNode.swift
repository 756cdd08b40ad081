import FlowRuntime

/// `limit`: at most `count` rows, starting after `offset` rows.
struct LimitNode: NodeKind {
  var name: String { "limit" }
  var summary: String { "table = at most count rows of table, after skipping offset rows" }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration("count", .integer, required: true, summary: "how many rows to keep"),
      ParameterDeclaration("offset", .integer, default: .integer(0), summary: "how many rows to skip first")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let count = parameters.integer("count") ?? 0
    let offset = parameters.integer("offset") ?? 0
    guard count >= 0 else {
      throw NodeConfigurationError(parameter: "count", reason: "must not be negative, found \(count)")
    }
    guard offset >= 0 else {
      throw NodeConfigurationError(parameter: "offset", reason: "must not be negative, found \(offset)")
    }
    return NodeInstance(
      inputs: [InputPort("table", .table, default: .null)], outputs: [PortDeclaration("table", .table)],
      evaluator: Evaluator(count: count, offset: offset, workers: parameters.environment.workers))
  }

  struct Evaluator: NodeEvaluator {
    let count: Int64
    let offset: Int64
    /// The run's threads (`EvaluationEnvironment.workers`).
    let workers: Int

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let table = try inputs.table(0)
      let rows = Int64(table.rowCount)
      let start = min(offset, rows)
      let end = start + min(count, rows - start)
      outputs[0] = .table(table.slice(Int(start)..<Int(end), workers: workers))
    }
  }
}

extension LimitNode: SQLRelationalKind {
  var sqlForm: SQLForm { .limit }
}
