import FlowGraph
import FlowRuntime

/// `unpivot` (pandas' `melt`): for each input row in order, one row per listed column in the
/// listed order — the `keep` columns, the column's name (column `names`) and its cell (column
/// `values`; nulls kept). `columns` defaults to every column not in `keep`. An `integer`
/// column with a `number` one gives `number`; other mixed types fail the node naming the
/// columns. The output's row count is checked against the row limit before it is built.
struct UnpivotNode: NodeKind {
  var name: String { "unpivot" }
  var summary: String {
    "table = one row per input row and listed column: the keep columns, the column's name, its value"
  }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration("keep", .list, default: .list([]), summary: "columns repeated on each output row"),
      ParameterDeclaration("columns", .list, summary: "columns turned into rows (default: every column not in keep)"),
      ParameterDeclaration(
        "names", .string, default: .string("name"), summary: "the output column of the column names"),
      ParameterDeclaration("values", .string, default: .string("value"), summary: "the output column of the values")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let keep = try TableParameters.strings(parameters, "keep")
    let listed: [String]? = parameters.list("columns") == nil ? nil : try TableParameters.strings(parameters, "columns")
    let names = parameters.string("names") ?? "name", values = parameters.string("values") ?? "value"
    var problems: [NodeConfigurationError] = []
    if names == values {
      problems.append(
        NodeConfigurationError(parameter: "values", reason: "names the column '\(values)' that names also names"))
    }
    for (param, name) in [("names", names), ("values", values)] where keep.contains(name) {
      problems.append(
        NodeConfigurationError(parameter: param, reason: "names the column '\(name)' that keep also keeps"))
    }
    for name in listed ?? [] where keep.contains(name) {
      problems.append(NodeConfigurationError(parameter: "columns", reason: "lists '\(name)', which keep also keeps"))
    }
    if let problem = NodeConfigurationError(problems) { throw problem }
    return NodeInstance(
      inputs: [InputPort("table", .table, default: .null)], outputs: [PortDeclaration("table", .table)],
      evaluator: Evaluator(
        keep: keep, listed: listed, names: names, values: values,
        limits: parameters.environment.limits),
      cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let keep: [String]
    let listed: [String]?
    let names: String
    let values: String
    let limits: RunLimits

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let table = try inputs.table(0)
      func column(_ name: String, _ param: String) throws -> Column {
        do { return table.column(at: try TableParameters.column(name, in: table)) } catch let error as NodeError {
          throw NodeError("\(param): \(error.message)")
        }
      }
      let kept = try keep.map { try column($0, "keep") }
      let keepSet = Set(keep)
      let listed = self.listed ?? table.columnNames.filter { !keepSet.contains($0) }
      let sources = try listed.map { try column($0, "columns") }
      // Types first: integer with number gives number; any other mix fails naming the columns.
      if let first = sources.first,
        let clash = zip(listed, sources).first(where: {
          $0.1.type != first.type && !($0.1.isNumeric && first.isNumeric)
        })
      {
        throw NodeError(
          "columns: '\(listed[0])' is \(first.type) but '\(clash.0)' is \(clash.1.type); "
            + "unpivot mixes only integer with number")
      }
      let rowCount = table.rowCount, width = listed.count
      let (outputRows, overflow) = rowCount.multipliedReportingOverflow(by: width)
      try limits.checkRows(overflow ? Int.max : outputRows, of: "unpivot output")
      guard outputRows <= Int(Int32.max) else {
        throw NodeError("an unpivot output of \(outputRows) rows is too large")
      }
      try limits.checkMemory(adding: outputRows &* (kept.count &+ 2) &* 8, for: "unpivot output")
      // Output row r·width + j: input row r, listed column j (cell j·rows + r of the concatenation).
      var repeated = [Int32](repeating: 0, count: outputRows), interleaved = [Int32](repeating: 0, count: outputRows)
      for row in 0..<rowCount {
        for slot in 0..<width {
          repeated[row * width + slot] = Int32(row)
          interleaved[row * width + slot] = Int32(slot * rowCount + row)
        }
      }
      var columns = kept.map { $0.gathering(repeated) }
      let nameColumn = Column(.string(StringColumn(listed)))
      columns.append(nameColumn.gathering((0..<outputRows).map { Int32($0 % Swift.max(width, 1)) }))
      do {
        columns.append(try Column.concatenating(sources).gathering(interleaved))
        outputs[0] = .table(try Table(names: keep + [names, values], columns: columns, rowCount: outputRows))
      } catch {
        throw TableParameters.failure(error)
      }
    }
  }
}

extension UnpivotNode: SQLRelationalKind {
  var sqlForm: SQLForm { .unpivot }
}
