import FlowGraph
import FlowRuntime

/// `window`: adds one column per entry of `columns`, each a window function computed over the
/// row's partition (`partitionBy`, in order of first appearance) taken in `orderBy` order
/// (`"-name"` descending, nulls last, ties in input order). Rows stay in input order; an entry
/// may read a column an earlier entry added (a name already in the table is replaced in place).
/// Every entry is parsed at load; partitions are computed on the run's threads, in runs of
/// whole partitions, so the table is the same at any worker count.
struct WindowNode: RowFormulaKind {
  var rowFormulaParameters: [String] { ["columns"] }
  var name: String { "window" }
  var summary: String { "adds columns computed over each row's partition in order: lag, rank, cumsum, rollingMean, …" }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration("partitionBy", .list, default: .list([]), summary: "key columns of the partitions"),
      ParameterDeclaration(
        "orderBy", .list, default: .list([]),
        summary: "order in a partition; \"-name\" descending (default: input order)"),
      ParameterDeclaration(
        "columns", .record, required: true,
        summary: "name → rowNumber(), rank(), denseRank(), lag(c[, n[, default]]), lead(…), cumsum(c), "
          + "cummin(c), cummax(c), cummean(c), cumcount(), rollingSum(c, n), rollingMean(c, n), "
          + "rollingMin(c, n), rollingMax(c, n), sum(c), mean(c), min(c), max(c), count(), first(c), last(c), median(c), std(c), var(c), quantile(c, q)"
      )
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    // `@name`s in the formulas are scalar inputs, written into the formulas when the node runs.
    // The entries with `@name`s take constant arguments (`lag`'s offset) from them.
    let binding = Set(
      (parameters.json("columns")?.objectValue?.members ?? []).compactMap { member in
        member.value.stringValue.map { RowFormulaInputs($0).names.isEmpty } == false ? member.key : nil
      })
    return try RowFormulaBinding.instantiate(parameters, formulas: rowFormulaParameters) {
      parameters throws(NodeConfigurationError) in
      try configured(parameters, binding: binding)
    }
  }

  /// The node for params whose formulas hold no `@name` (`binding`: the entries that held some).
  private func configured(_ parameters: NodeParameters, binding: Set<String> = []) throws(NodeConfigurationError)
    -> NodeInstance
  {
    let partitionBy = try TableParameters.strings(parameters, "partitionBy")
    let orderBy = try TableParameters.strings(parameters, "orderBy").map { entry in
      entry.hasPrefix("-") ? (name: String(entry.dropFirst()), descending: true) : (name: entry, descending: false)
    }
    var problems: [NodeConfigurationError] = []
    for (name, entry) in [("partitionBy", partitionBy), ("orderBy", orderBy.map(\.name))] where entry.contains("") {
      problems.append(NodeConfigurationError(parameter: name, reason: "names the empty column ''"))
    }
    var functions: [WindowFunction] = []
    for member in parameters.json("columns")?.objectValue?.members ?? [] {
      guard case .string(let text) = member.value else {
        problems.append(
          NodeConfigurationError(
            parameter: "columns",
            reason: "column '\(member.key)': expected a window function such as \"lag(c)\""))
        continue
      }
      switch WindowFunction.parse(output: member.key, text, bindsLater: binding.contains(member.key)) {
      case .success(let function): functions.append(function)
      case .failure(let problem): problems.append(problem)
      }
    }
    if let problem = NodeConfigurationError(problems) { throw problem }
    return NodeInstance(
      inputs: [InputPort("table", .table, default: .null)], outputs: [PortDeclaration("table", .table)],
      evaluator: Evaluator(
        partitionBy: partitionBy, orderBy: orderBy, functions: functions,
        limits: parameters.environment.limits, workers: parameters.environment.workers),
      cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let partitionBy: [String]
    let orderBy: [(name: String, descending: Bool)]
    let functions: [WindowFunction]
    let limits: RunLimits
    /// The run's threads (`EvaluationEnvironment.workers`).
    let workers: Int

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let table = try inputs.table(0)
      try TableParameters.checkRowIndices(table, for: "compute windows over")
      var names = table.columnNames, columns = table.columns
      var index: [String: Int] = [:]
      for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
      func column(_ name: String, for what: String) throws -> Column {
        guard let position = index[name] else {
          do { _ = try TableParameters.column(name, in: table) } catch let error as NodeError {
            throw NodeError("\(what): \(error.message)")
          }
          preconditionFailure("Internal inconsistency: column '\(name)' found by the table but not the index")
        }
        return columns[position]
      }
      let partitionColumns = try partitionBy.map { try column($0, for: "partitionBy") }
      let orderColumns = try orderBy.map { (column: try column($0.name, for: "orderBy"), descending: $0.descending) }
      let workers = table.rowCount >= TableParallelism.minimumCells ? self.workers : 1
      let needsPeers = functions.contains { $0.function == .rank || $0.function == .denseRank }
      let order = try WindowOrder(
        rowCount: table.rowCount, partitionColumns: partitionColumns, orderColumns: orderColumns,
        peers: needsPeers, workers: workers, morsels: TableMorsels(workers: self.workers))
      let runs = order.runs(target: Swift.max(4096, table.rowCount / Swift.max(1, workers * 4)))
      for function in functions {
        try Task.checkCancellation()  // a superseded pass stops between columns
        try limits.checkMemory(adding: table.rowCount * 10, for: "window column '\(function.output)'")
        let source = try function.column.map { try column($0, for: "column '\(function.output)'") }
        let kernel = try WindowKernel(function, order: order, source: source)
        let computed = TableParallelism.map(runs.count, cells: table.rowCount, workers: workers) { run in
          Result { try kernel.cells(runs[run]) }
        }
        let cells = runs.isEmpty ? [kernel.emptyCells] : try computed.map { try $0.get() }
        let made = try WindowCells.column(cells, rows: order.rows, source: source, fallback: function.fallback) {
          "column '\(function.output)': \(function.function.rawValue)(\(function.column ?? ""))"
        }
        if let position = index[function.output] {
          columns[position] = made
        } else {
          index[function.output] = names.count
          names.append(function.output)
          columns.append(made)
        }
      }
      do {
        outputs[0] = .table(try Table(names: names, columns: columns, rowCount: table.rowCount))
      } catch {
        throw TableParameters.failure(error)
      }
    }
  }
}

extension WindowNode: SQLRelationalKind {
  var sqlForm: SQLForm { .window }
}
