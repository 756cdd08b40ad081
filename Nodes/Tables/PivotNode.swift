import FlowGraph
import FlowRuntime

/// `pivot`: one row per distinct `index` key (in order of first appearance; `index: []` gives
/// one row), then one column per distinct non-null value of the `columns` column, sorted by its
/// text (Unicode scalars) and named by it, holding the `aggregate` of the `values` column over
/// the rows of that key and value; a missing combination is null (`count`: 0). More than
/// `maxNewColumns` new columns fails the node naming the limit.
struct PivotNode: NodeKind {
  /// The most columns a pivot may add.
  static let maxNewColumns = 10_000

  var name: String { "pivot" }
  var summary: String { "table = one row per index key, one column per distinct value of a column, cells aggregated" }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration("index", .list, default: .list([]), summary: "key columns of the rows"),
      ParameterDeclaration("columns", .string, required: true, summary: "the column whose values become columns"),
      ParameterDeclaration("values", .string, required: true, summary: "the column aggregated into the cells"),
      ParameterDeclaration(
        "aggregate", .string, default: .string("first"),
        summary: "first (default), sum, mean, count, min, max or last")
    ]
  }

  /// The aggregates `pivot` takes.
  static let aggregates: [String] = ["first", "sum", "mean", "count", "min", "max", "last"]

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let index = try TableParameters.strings(parameters, "index")
    let columns = parameters.string("columns") ?? "", values = parameters.string("values") ?? ""
    let aggregate = parameters.string("aggregate") ?? "first"
    var problems: [NodeConfigurationError] = []
    if !Self.aggregates.contains(aggregate) {
      problems.append(
        NodeConfigurationError(
          parameter: "aggregate",
          reason: "unknown aggregate '\(aggregate)'"
            + Suggestion.hint(for: aggregate, among: Self.aggregates)
            + " (known: \(Self.aggregates.joined(separator: ", ")))"))
    }
    if columns.isEmpty { problems.append(NodeConfigurationError(parameter: "columns", reason: "must name a column")) }
    if values.isEmpty { problems.append(NodeConfigurationError(parameter: "values", reason: "must name a column")) }
    if index.contains(columns) && !columns.isEmpty {
      problems.append(NodeConfigurationError(parameter: "columns", reason: "'\(columns)' is also an index column"))
    }
    if let problem = NodeConfigurationError(problems) { throw problem }
    return NodeInstance(
      inputs: [InputPort("table", .table, default: .null)], outputs: [PortDeclaration("table", .table)],
      evaluator: Evaluator(
        index: index, columns: columns, values: values, aggregate: aggregate,
        limits: parameters.environment.limits, workers: parameters.environment.workers),
      cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let index: [String]
    let columns: String
    let values: String
    let aggregate: String
    let limits: RunLimits
    /// The run's threads (`EvaluationEnvironment.workers`).
    let workers: Int

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let table = try inputs.table(0)
      try TableParameters.checkRowIndices(table, for: "pivot")
      func column(_ name: String, _ param: String) throws -> Column {
        do { return table.column(at: try TableParameters.column(name, in: table)) } catch let error as NodeError {
          throw NodeError("\(param): \(error.message)")
        }
      }
      let keyColumns = try index.map { try column($0, "index") }
      let pivoted = try column(columns, "columns"), aggregated = try column(values, "values")
      let rowCount = table.rowCount
      let workers = rowCount >= TableParallelism.minimumCells ? self.workers : 1
      let (groups, groupCount): ([Int32], Int) =
        keyColumns.isEmpty
        ? ([Int32](repeating: 0, count: rowCount), 1)
        : GroupCodes.codes(of: keyColumns, rowCount: rowCount, workers: workers)
      let (names, slots) = try PivotColumns.slots(of: pivoted, named: columns)
      for name in names where index.contains(name) {
        throw NodeError("columns: the value '\(name)' of column '\(columns)' names the index column '\(name)'")
      }
      let width = names.count
      let (cells, overflow) = groupCount.multipliedReportingOverflow(by: width)
      guard !overflow, cells < Int(Int32.max) else {
        throw NodeError("a pivot of \(groupCount) rows × \(width) columns is too large")
      }
      try limits.checkMemory(adding: cells * 9, for: "pivot output")
      // One group per (row key, new column); rows whose `columns` cell is null go to a last,
      // unused group.
      var pairs = [Int32](repeating: Int32(cells), count: rowCount)
      for row in 0..<rowCount where slots[row] >= 0 { pairs[row] = groups[row] * Int32(width) + slots[row] }
      var firstRow = [Int32](repeating: -1, count: groupCount)
      for row in 0..<rowCount where firstRow[Int(groups[row])] < 0 { firstRow[Int(groups[row])] = Int32(row) }
      let computed = try PivotColumns.aggregate(
        aggregate, of: aggregated, named: values, pairs: pairs, pairCount: cells + 1)
      var outputColumns = keyColumns.map { $0.gathering(firstRow) }
      outputColumns.reserveCapacity(index.count + width)
      for slot in 0..<width {
        try Task.checkCancellation()
        let gather = (0..<groupCount).map { Int32($0 * width + slot) }
        outputColumns.append(computed.gathering(gather))
      }
      do {
        outputs[0] = .table(try Table(names: index + names, columns: outputColumns, rowCount: groupCount))
      } catch {
        throw TableParameters.failure(error)
      }
    }
  }
}

extension PivotNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.pivot) }
}
