import FlowRuntime

/// `join`: rows of `left` joined with the rows of `right` whose `on` columns are equal (see
/// `JoinKind` for what each `how` keeps, and in what order); an `on` entry is a column of both
/// tables or `"left = right"`, a left column and a right column (``JoinKeyPair``). The output
/// has the left columns, then the right table's other columns (a key named alike on both sides
/// appears once; a clashing name gets the suffix `_right`);
/// `semi` and `anti` keep the left columns only. A right-only row (`right`, `full`) has nulls
/// in the left columns but its own values in the key columns. Null keys never match. The
/// output's row count is counted (per key, from the match counts) and checked against the row
/// limit before any row is gathered. `on: []` is a cross join (`how` inner): every left row
/// with every right row, left order then right order, its row count (left × right) checked
/// against the row limit before it is built.
struct JoinNode: NodeKind {
  var name: String { "join" }
  var summary: String {
    "table = left rows joined with the right rows whose on columns are equal (inner, left, right, full, semi, anti)"
  }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration(
        "on", .list, required: true,
        summary: "key columns, in both tables, or \"left = right\" pairs ([]: a cross join)"),
      ParameterDeclaration("how", .string, default: .string("inner"), summary: "inner, left, right, full, semi or anti")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let keys = try TableParameters.strings(parameters, "on")
    let how = parameters.string("how") ?? "inner"
    guard let kind = JoinKind(rawValue: how) else {
      let known = JoinKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw NodeConfigurationError(parameter: "how", reason: "must be one of \(known), found \"\(how)\"")
    }
    guard !keys.isEmpty || kind == .inner else {
      throw NodeConfigurationError(
        parameter: "on", reason: "is empty (a cross join), which needs how \"inner\", not \"\(how)\"")
    }
    return NodeInstance(
      inputs: [InputPort("left", .table, default: .null), InputPort("right", .table, default: .null)],
      outputs: [PortDeclaration("table", .table)],
      evaluator: Evaluator(
        keys: keys, kind: kind, limits: parameters.environment.limits,
        workers: parameters.environment.workers),
      cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let keys: [String]
    let kind: JoinKind
    let limits: RunLimits
    /// The run's threads (`EvaluationEnvironment.workers`).
    let workers: Int

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let left = try inputs.table(0), right = try inputs.table(1)
      outputs[0] = .table(
        try Self.joined(
          left, right, keys: keys, kind: kind, limits: limits,
          morsels: TableMorsels(workers: workers)))
    }

    /// The join of `left` and `right`: keys probed, output rows selected in morsels of
    /// `morsels`, then the output columns gathered one per thread — the same table at any
    /// morsel size and worker count.
    ///
    /// - Throws: `NodeError` (a missing or mismatched key, too many rows), `CancellationError`.
    static func joined(
      _ left: Table, _ right: Table, keys: [String], kind: JoinKind, limits: RunLimits,
      morsels: TableMorsels
    ) throws -> Table {
      try TableParameters.checkRowIndices(left, for: "join")
      try TableParameters.checkRowIndices(right, for: "join")
      if keys.isEmpty { return try crossJoined(left, right, limits: limits, morsels: morsels) }
      let pairs = JoinKeyPair.resolved(keys, left: left, right: right)
      if kind.keepsLeftColumnsOnly, pairs.count == 1,
        let kept = try keptRows(left, right, pairs[0], keep: kind == .semi, morsels)
      {
        try limits.checkRows(kept.count, of: "join output")
        try limits.checkMemory(
          adding: kept.count &* (left.columnCount &+ right.columnCount &+ 2) &* 8, for: "join output")
        return kept.count == left.rowCount ? left : left.gathering(kept, workers: morsels.workers)
      }
      let matches = try JoinMatches(
        left: left, right: right, keys: pairs, indexesLeft: kind.needsLeftIndex, morsels: morsels)
      let outputRows = kind.outputRowCount(matches, morsels: morsels)
      try limits.checkRows(outputRows, of: "join output")
      // Two row indexes per output row and 8 bytes per output cell: a lower bound of what the
      // join allocates (string bytes come on top), checked against the memory limit first.
      try limits.checkMemory(
        adding: outputRows &* (left.columnCount &+ right.columnCount &+ 2) &* 8, for: "join output")
      let (leftTake, rightTake) = try kind.selection(matches, rows: outputRows, morsels: morsels)
      if kind.keepsLeftColumnsOnly {
        // Every left row kept, in order: the left table itself, sharing its storage.
        return leftTake.count == left.rowCount ? left : left.gathering(leftTake, workers: morsels.workers)
      }
      let shared = pairs.filter(\.isShared).map(\.left)
      return try gathered(
        left, right, keys: shared, kind: kind, leftTake: leftTake, rightTake: rightTake, morsels: morsels)
    }

    /// The left rows a `semi` or `anti` join on one key pair keeps, when `JoinCodes.keptRows`
    /// can find them without `JoinMatches`.
    private static func keptRows(
      _ left: Table, _ right: Table, _ key: JoinKeyPair, keep: Bool,
      _ morsels: TableMorsels
    ) throws -> [Int32]? {
      JoinCodes.keptRows(
        left: left.column(at: try TableParameters.column(key.left, in: left, side: "left")),
        right: right.column(at: try TableParameters.column(key.right, in: right, side: "right")),
        keep: keep, morsels: morsels)
    }

    /// The cross join (`on: []`): every left row with every right row, left order then right
    /// order.
    ///
    /// - Throws: `NodeError` when left × right rows pass the row limit (or the output the memory
    ///   limit), before anything is built.
    static func crossJoined(_ left: Table, _ right: Table, limits: RunLimits, morsels: TableMorsels) throws -> Table {
      let (outputRows, overflow) = left.rowCount.multipliedReportingOverflow(by: right.rowCount)
      try limits.checkRows(
        overflow ? Int.max : outputRows, of: "join output (a cross join of \(left.rowCount) × \(right.rowCount) rows)")
      try limits.checkMemory(
        adding: outputRows &* (left.columnCount &+ right.columnCount &+ 2) &* 8, for: "join output")
      var leftTake = [Int32](), rightTake = [Int32]()
      leftTake.reserveCapacity(outputRows)
      rightTake.reserveCapacity(outputRows)
      for row in 0..<Int32(left.rowCount) {
        if Task.isCancelled { throw CancellationError() }
        leftTake.append(contentsOf: repeatElement(row, count: right.rowCount))
        rightTake.append(contentsOf: 0..<Int32(right.rowCount))
      }
      return try gathered(
        left, right, keys: [], kind: .inner, leftTake: leftTake, rightTake: rightTake, morsels: morsels)
    }

    /// The output of a join whose rows are chosen: the left columns (the `keys` named alike on
    /// both sides merged for `right` and `full`), then the right table's other columns,
    /// gathered one per thread.
    private static func gathered(
      _ left: Table, _ right: Table, keys: [String], kind: JoinKind, leftTake: [Int32],
      rightTake: [Int32], morsels: TableMorsels
    ) throws -> Table {
      let keySet = Set(keys)
      var names = left.columnNames
      // Each output column: a left column, a merged key column, or a right column.
      var sources: [(column: Column, other: Column?, fromLeft: Bool)] = []
      sources.reserveCapacity(left.columnCount + right.columnCount)
      for (index, name) in names.enumerated() {
        let other = kind.keepsUnmatchedRight && keySet.contains(name) ? right.column(named: name) : nil
        sources.append((left.column(at: index), other, true))
      }
      for (index, name) in right.columnNames.enumerated() where !keySet.contains(name) {
        names.append(left.columnIndex(named: name) == nil ? name : name + "_right")
        sources.append((right.column(at: index), nil, false))
      }
      let jobs = sources
      let columns = morsels.mapColumns(jobs.count, rows: leftTake.count) { index in
        let source = jobs[index]
        if let other = source.other {
          return JoinKind.keyColumn(left: source.column, right: other, leftTake: leftTake, rightTake: rightTake)
        }
        return source.column.gathering(source.fromLeft ? leftTake : rightTake)
      }
      do { return try Table(names: names, columns: columns, rowCount: leftTake.count) } catch {
        throw TableParameters.failure(error)
      }
    }
  }
}

extension JoinNode: SQLRelationalKind {
  var sqlForm: SQLForm { .join }
}
