import FlowGraph
import FlowRuntime

/// `groupBy`: one row per distinct key (the `by` columns), in order of first appearance; the
/// key columns, then the aggregates in the order the document wrote them. A null key is a key
/// of its own; aggregates skip nulls; `by: []` gives one row, even for an empty table.
struct GroupByNode: NodeKind {
  var name: String { "groupBy" }
  var summary: String { "table = one row per distinct key of the by columns, with the aggregates" }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration("by", .list, default: .list([]), summary: "key columns"),
      ParameterDeclaration(
        "aggregate", .record, default: .record([:]),
        summary: "output name → \(Aggregate.listing)")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let keys = try TableParameters.strings(parameters, "by")
    var aggregates: [Aggregate] = []
    // The raw JSON keeps the members in the order the document wrote them.
    // Every bad entry is reported, not only the first.
    var problems: [NodeConfigurationError] = []
    for member in parameters.json("aggregate")?.objectValue?.members ?? [] {
      guard case .string(let text) = member.value else {
        problems.append(
          NodeConfigurationError(parameter: "aggregate", reason: "'\(member.key)' must be a string such as \"sum(c)\""))
        continue
      }
      switch Aggregate.parse(output: member.key, text) {
      case .success(let aggregate): aggregates.append(aggregate)
      case .failure(let problem): problems.append(problem)
      }
    }
    if let problem = NodeConfigurationError(problems) { throw problem }
    // One set of the names so far: linear in keys + aggregates (a search per name was
    // quadratic, 2 s for 50,000 aggregates even in `flow validate`).
    var seen = Set<String>(minimumCapacity: keys.count + aggregates.count)
    for name in keys + aggregates.map(\.output) where !seen.insert(name).inserted {
      throw NodeConfigurationError(parameter: "aggregate", reason: "names the output column '\(name)' twice")
    }
    return NodeInstance(
      inputs: [InputPort("table", .table, default: .null)], outputs: [PortDeclaration("table", .table)],
      evaluator: Evaluator(keys: keys, aggregates: aggregates, workers: parameters.environment.workers),
      cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let keys: [String]
    let aggregates: [Aggregate]
    /// The run's threads (`EvaluationEnvironment.workers`).
    let workers: Int
    /// Rows per block of the compensated sums (`BlockSums`; tests use small blocks).
    var blockRows = BlockSums.standardBlockRows

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let table = try inputs.table(0)
      try TableParameters.checkRowIndices(table, for: "group")
      var keyColumns: [Column] = []
      for key in keys { keyColumns.append(table.column(at: try TableParameters.column(key, in: table))) }
      var sources: [Column?] = []
      for aggregate in aggregates {
        sources.append(try aggregate.column.map { table.column(at: try TableParameters.column($0, in: table)) })
      }
      // A large table on the run's threads (at least two blocks; smaller ones serially): the
      // keys by blocks (`GroupCodes`), the aggregates one per thread, a sum's or mean's blocks
      // on the threads the aggregates leave (`BlockSums`) — the same table at any count.
      let workers = table.rowCount >= 2 * blockRows ? self.workers : 1
      let groups: [Int32]
      let groupCount: Int
      if keys.isEmpty {
        groups = [Int32](repeating: 0, count: table.rowCount)
        groupCount = 1
      } else {
        (groups, groupCount) = GroupCodes.codes(
          of: keyColumns, rowCount: table.rowCount, workers: workers, blockRows: blockRows)
      }
      var firstRow = [Int32](repeating: -1, count: groupCount)
      for row in 0..<table.rowCount where firstRow[Int(groups[row])] < 0 { firstRow[Int(groups[row])] = Int32(row) }
      if Task.isCancelled { throw CancellationError() }
      var columns = keyColumns.map { $0.gathering(firstRow) }
      let aggregates = self.aggregates, inputs = sources, blockRows = blockRows
      let inner = Swift.max(1, workers / Swift.max(1, aggregates.count))
      let computed = TableParallelism.map(
        aggregates.count, cells: table.rowCount * aggregates.count,
        workers: self.workers
      ) { index in
        Result {
          try aggregates[index].compute(
            groups: groups, groupCount: groupCount, column: inputs[index], workers: inner, blockRows: blockRows)
        }
      }
      for (index, result) in computed.enumerated() {
        do {
          columns.append(try result.get())
        } catch let overflow as IntegerSumOverflow {
          throw overflow.message(
            aggregates[index], keys: keys, keyColumns: keyColumns, row: Int(firstRow[overflow.group]))
        }
      }
      do {
        outputs[0] = .table(try Table(names: keys + aggregates.map(\.output), columns: columns, rowCount: groupCount))
      } catch {
        throw TableParameters.failure(error)
      }
    }
  }
}

extension GroupByNode: SQLRelationalKind {
  var sqlForm: SQLForm { .groupBy }
}

extension GroupByNode: MorselSinkKind {
  var streamedEnd: StreamedChain.End { .groupBy }

  /// Whether the node's aggregates stream (all parse, none is `countDistinct`).
  func streams(_ spec: NodeSpec) -> Bool {
    guard let members = spec.params["aggregate"]?.objectValue?.members else { return true }
    var aggregates: [Aggregate] = []
    for member in members {
      guard case .string(let text) = member.value,
        case .success(let aggregate) = Aggregate.parse(output: member.key, text)
      else {
        return false
      }
      aggregates.append(aggregate)
    }
    return GroupByStream.supports(aggregates)
  }
}
