import FlowRuntime

/// `join`: rows of `left` joined with the rows of `right` whose `on` columns are equal; rows
/// in left order, matches in right order. The right table's other columns are added (a name
/// that clashes gets the suffix `_right`). `how: left` keeps unmatched left rows with nulls;
/// null keys never match. The output's row count is counted (per key, from the match counts)
/// and checked against the row limit before any row is gathered.
struct JoinNode: NodeKind {
  var name: String { "join" }
  var summary: String { "table = left rows joined with the right rows whose on columns are equal (inner or left)" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("on", .list, required: true, summary: "key columns, in both tables"),
     ParameterDeclaration("how", .string, default: .string("inner"), summary: "inner or left")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let keys = try TableParameters.strings(parameters, "on")
    guard !keys.isEmpty else { throw NodeConfigurationError(parameter: "on", reason: "must name at least one column") }
    let how = parameters.string("how") ?? "inner"
    guard how == "inner" || how == "left" else {
      throw NodeConfigurationError(parameter: "how", reason: "must be \"inner\" or \"left\", found \"\(how)\"")
    }
    return NodeInstance(inputs: [InputPort("left", .table, default: .null), InputPort("right", .table, default: .null)],
                        outputs: [PortDeclaration("table", .table)],
                        evaluator: Evaluator(keys: keys, keepsUnmatched: how == "left", limits: parameters.environment.limits),
                        cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let keys: [String]
    let keepsUnmatched: Bool
    let limits: RunLimits

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let left = try inputs.table(0), right = try inputs.table(1)
      try TableParameters.checkRowIndices(left, for: "join")
      try TableParameters.checkRowIndices(right, for: "join")
      var leftIDs = [Int32](repeating: 0, count: left.rowCount)
      var rightIDs = [Int32](repeating: 0, count: right.rowCount)
      var cardinality = 1
      for (position, key) in keys.enumerated() {
        let codes = try ColumnCodes.joinCodes(left: left.column(at: try TableParameters.column(key, in: left, side: "left")),
                                              right: right.column(at: try TableParameters.column(key, in: right, side: "right")),
                                              name: key)
        if position == 0 {
          (leftIDs, rightIDs, cardinality) = codes
        } else {
          // Combine with the key so far; -1 (no match possible) stays -1.
          var ids: [Int64: Int32] = [:]
          var next: Int32 = 0
          for row in 0..<right.rowCount {
            guard rightIDs[row] >= 0, codes.right[row] >= 0 else { rightIDs[row] = -1; continue }
            let combined = Int64(rightIDs[row]) * Int64(codes.cardinality) + Int64(codes.right[row])
            if let id = ids[combined] { rightIDs[row] = id } else { ids[combined] = next; rightIDs[row] = next; next += 1 }
          }
          for row in 0..<left.rowCount {
            guard leftIDs[row] >= 0, codes.left[row] >= 0 else { leftIDs[row] = -1; continue }
            leftIDs[row] = ids[Int64(leftIDs[row]) * Int64(codes.cardinality) + Int64(codes.left[row])] ?? -1
          }
          cardinality = Int(next)
        }
      }
      // Right rows by key id, in right order (counting sort).
      var starts = [Int32](repeating: 0, count: cardinality + 1)
      for id in rightIDs where id >= 0 { starts[Int(id) + 1] += 1 }
      for index in 0..<cardinality { starts[index + 1] += starts[index] }
      var fill = starts
      var rightRows = [Int32](repeating: 0, count: Int(starts[cardinality]))
      for (row, id) in rightIDs.enumerated() where id >= 0 {
        rightRows[Int(fill[Int(id)])] = Int32(row)
        fill[Int(id)] += 1
      }
      // The output's size, known before it is built: at most 2³¹ × 2³¹ rows, no overflow.
      var outputRows = 0
      for id in leftIDs {
        let matches = id >= 0 ? Int(starts[Int(id) + 1] - starts[Int(id)]) : 0
        outputRows += matches > 0 ? matches : (keepsUnmatched ? 1 : 0)
      }
      try limits.checkRows(outputRows, of: "join output")
      var leftTake: [Int32] = [], rightTake: [Int32] = []
      leftTake.reserveCapacity(outputRows)
      rightTake.reserveCapacity(outputRows)
      for row in 0..<left.rowCount {
        let id = leftIDs[row]
        if id >= 0 && starts[Int(id)] < starts[Int(id) + 1] {
          for index in Int(starts[Int(id)])..<Int(starts[Int(id) + 1]) {
            leftTake.append(Int32(row))
            rightTake.append(rightRows[index])
          }
        } else if keepsUnmatched {
          leftTake.append(Int32(row))
          rightTake.append(-1)
        }
        if row & 0xFFFF == 0xFFFF && Task.isCancelled { throw CancellationError() }
      }
      var names = left.columnNames
      var columns = left.columns.map { $0.gathering(leftTake) }
      let keySet = Set(keys)
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
