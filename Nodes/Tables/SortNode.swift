import FlowRuntime

/// `sort`: orders the rows by the listed columns (`"-name"` descending); stable, and nulls go
/// last in either direction. Strings compare by Unicode scalar values. An entry that is not a
/// column's name may be a row formula (`"-abs(delay)"`: descending by `abs(delay)`), evaluated
/// per row as a key (``SortKey``).
struct SortNode: RowFormulaKind {
  var rowFormulaParameters: [String] { ["by"] }
  var name: String { "sort" }
  var summary: String {
    "table = rows of table ordered by the listed columns (\"-name\" descending); stable, nulls last"
  }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration(
        "by", .list, required: true,
        summary: "column names or row formulas; \"-name\" or \"-abs(x)\" for descending")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    // `@name`s in the formulas are scalar inputs, written into the formulas when the node runs.
    try RowFormulaBinding.instantiate(parameters, formulas: rowFormulaParameters) {
      parameters throws(NodeConfigurationError) in
      try configured(parameters)
    }
  }

  /// The node for params whose formulas hold no `@name`.
  private func configured(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    var keys: [SortKey] = []
    for entry in try TableParameters.strings(parameters, "by") { keys.append(SortKey(entry)) }
    return NodeInstance(
      inputs: [InputPort("table", .table, default: .null)], outputs: [PortDeclaration("table", .table)],
      evaluator: Evaluator(keys: keys, workers: parameters.environment.workers), cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let keys: [SortKey]
    /// The run's threads (`EvaluationEnvironment.workers`).
    let workers: Int

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let table = try inputs.table(0)
      try TableParameters.checkRowIndices(table, for: "sort")
      var columns: [(column: Column, descending: Bool)] = []
      for key in keys { columns.append((try key.column(of: table), key.descending)) }
      let morsels = TableMorsels(workers: workers)
      outputs[0] = .table(
        table.gathering(try Self.order(rowCount: table.rowCount, columns, morsels: morsels), workers: workers))
    }

    /// The row order: by each key in turn, nulls last, ties in row order (stable). The keys
    /// become integers first (`SortKeys`); the rows are sorted in morsels on the workers and
    /// merged (`SortRuns`): the same order at any worker count.
    static func order(
      rowCount: Int, _ columns: [(column: Column, descending: Bool)],
      morsels: TableMorsels
    ) throws -> [Int32] {
      let keys = SortKeys(columns, morsels: morsels)
      // Each entry carries its first key (a null as the largest); equal first keys (a null, or
      // a value that takes the largest key) ask every key.
      let first = keys.values.first ?? [], firstNulls = keys.nulls.first ?? nil
      let entries = try SortRuns.sorted(
        rowCount, morsels: morsels,
        entry: { row in
          SortEntry(key: first.isEmpty || firstNulls?[Int(row)] == true ? .max : first[Int(row)], row: row)
        }, by: { a, b in a.key != b.key ? a.key < b.key : keys.less(a.row, b.row) })
      return entries.map(\.row)
    }
  }
}

/// A row to sort with its first sort key beside it.
struct SortEntry: Sendable {
  let key: UInt64
  let row: Int32
}

extension SortNode: SQLRelationalKind {
  var sqlForm: SQLForm { .sort }
}
