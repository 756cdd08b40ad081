import FlowRuntime

/// `join`: rows of `left` joined with the rows of `right` whose `on` columns are equal (see
/// `JoinKind` for what each `how` keeps, and in what order). The output has the left columns,
/// then the right table's other columns (a name that clashes gets the suffix `_right`);
/// `semi` and `anti` keep the left columns only. A right-only row (`right`, `full`) has nulls
/// in the left columns but its own values in the key columns. Null keys never match. The
/// output's row count is counted (per key, from the match counts) and checked against the row
/// limit before any row is gathered.
struct JoinNode: NodeKind {
  var name: String { "join" }
  var summary: String {
    "table = left rows joined with the right rows whose on columns are equal (inner, left, right, full, semi, anti)"
  }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("on", .list, required: true, summary: "key columns, in both tables"),
     ParameterDeclaration("how", .string, default: .string("inner"), summary: "inner, left, right, full, semi or anti")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let keys = try TableParameters.strings(parameters, "on")
    guard !keys.isEmpty else { throw NodeConfigurationError(parameter: "on", reason: "must name at least one column") }
    let how = parameters.string("how") ?? "inner"
    guard let kind = JoinKind(rawValue: how) else {
      let known = JoinKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw NodeConfigurationError(parameter: "how", reason: "must be one of \(known), found \"\(how)\"")
    }
    return NodeInstance(inputs: [InputPort("left", .table, default: .null), InputPort("right", .table, default: .null)],
                        outputs: [PortDeclaration("table", .table)],
                        evaluator: Evaluator(keys: keys, kind: kind, limits: parameters.environment.limits),
                        cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let keys: [String]
    let kind: JoinKind
    let limits: RunLimits

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let left = try inputs.table(0), right = try inputs.table(1)
      try TableParameters.checkRowIndices(left, for: "join")
      try TableParameters.checkRowIndices(right, for: "join")
      let matches = try JoinMatches(left: left, right: right, keys: keys)
      let outputRows = kind.outputRowCount(matches)
      try limits.checkRows(outputRows, of: "join output")
      let (leftTake, rightTake) = try kind.selection(matches, rows: outputRows)
      if kind.keepsLeftColumnsOnly {
        // Every left row kept, in order: the left table itself, sharing its storage.
        outputs[0] = .table(leftTake.count == left.rowCount ? left : left.gathering(leftTake))
        return
      }
      let keySet = Set(keys)
      var names = left.columnNames
      var columns: [Column] = []
      columns.reserveCapacity(left.columnCount + right.columnCount)
      for (index, name) in names.enumerated() {
        if kind.keepsUnmatchedRight && keySet.contains(name), let other = right.column(named: name) {
          columns.append(JoinKind.keyColumn(left: left.column(at: index), right: other, leftTake: leftTake, rightTake: rightTake))
        } else {
          columns.append(left.column(at: index).gathering(leftTake))
        }
      }
      for (index, name) in right.columnNames.enumerated() where !keySet.contains(name) {
        names.append(left.columnIndex(named: name) == nil ? name : name + "_right")
        columns.append(right.column(at: index).gathering(rightTake))
      }
      do { outputs[0] = .table(try Table(names: names, columns: columns, rowCount: leftTake.count)) } catch {
        throw TableParameters.failure(error)
      }
    }
  }
}
