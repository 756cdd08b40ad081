import FlowRuntime

/// `distinct`: keeps the first row of each distinct key (the `columns`, or every column when
/// left out), in order. Null equals null here; strings are equal when their Unicode scalars
/// are, numbers when they are numerically equal. Each key cell is hashed once (no search
/// among earlier rows); the output's row count is checked against the row limit before it is
/// built.
struct DistinctNode: NodeKind {
  var name: String { "distinct" }
  var summary: String { "table = the first row of each distinct key of the columns (all columns if left out)" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("columns", .list, summary: "key columns (left out: every column)")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let keys: [String]? = parameters.list("columns") == nil ? nil : try TableParameters.strings(parameters, "columns")
    if keys?.isEmpty == true {
      throw NodeConfigurationError(
        parameter: "columns", reason: "must name at least one column (leave it out for every column)")
    }
    return NodeInstance(
      inputs: [InputPort("table", .table, default: .null)], outputs: [PortDeclaration("table", .table)],
      evaluator: Evaluator(keys: keys, limits: parameters.environment.limits, workers: parameters.environment.workers),
      cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    /// The key columns; `nil` for every column.
    let keys: [String]?
    let limits: RunLimits
    /// The run's threads (`EvaluationEnvironment.workers`).
    let workers: Int

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let table = try inputs.table(0)
      try TableParameters.checkRowIndices(table, for: "make distinct")
      var keyColumns: [Column] = []
      if let keys {
        for key in keys { keyColumns.append(table.column(at: try TableParameters.column(key, in: table))) }
      } else {
        keyColumns = table.columns
      }
      let (codes, cardinality) = ColumnCodes.codes(of: keyColumns, rowCount: table.rowCount)
      if Task.isCancelled { throw CancellationError() }
      try limits.checkRows(cardinality, of: "distinct output")
      // Codes count up in order of first appearance, so a row is a first exactly when its
      // code is the next one not seen yet.
      var firstRows: [Int32] = []
      firstRows.reserveCapacity(cardinality)
      for (row, code) in codes.enumerated() where Int(code) == firstRows.count { firstRows.append(Int32(row)) }
      outputs[0] = .table(firstRows.count == table.rowCount ? table : table.gathering(firstRows, workers: workers))
    }
  }
}

extension DistinctNode: SQLRelationalKind {
  var sqlForm: SQLForm { .distinct }
}
