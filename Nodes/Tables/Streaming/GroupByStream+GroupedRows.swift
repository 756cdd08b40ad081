import FlowRuntime

extension GroupByStream {
  /// Whether a morsel's rows may come listed by group (`GroupRows`): every aggregate is
  /// `count()`, `sum` or `mean` (whose columns `add(_:codes:grouped:workers:)` checks).
  static func takesGroupedRows(_ aggregates: [Aggregate]) -> Bool {
    aggregates.allSatisfy { aggregate in
      switch aggregate.function {
      case .count: aggregate.column == nil
      case .sum, .mean: true
      case .min, .max, .first, .last, .countDistinct, .median, .std, .var, .quantile: false
      }
    }
  }

  /// Adds the rows of a morsel that `grouped` lists (those a `filter` kept, or every row),
  /// whose groups in the morsel are `codes` (over every row of `table`): the same as `add` of
  /// the listed rows alone. Each group's sums are added in a loop of its own
  /// (`BlockSums.addGrouped`), a `count()` takes each group's number of rows.
  ///
  /// When a `sum` or `mean` has a column with nulls or not of numbers, or the sums go to
  /// several workers, or the groups are many for the rows, the listed rows are gathered and
  /// added by `add` (with the errors it throws).
  mutating func add(_ table: Table, codes: (local: [Int32], count: Int), grouped: GroupRows, workers: Int) throws {
    precondition(
      codes.local.count == table.rowCount && grouped.groupCount == codes.count,
      "Internal inconsistency: a morsel's listed rows for other codes")
    var keyColumns: [Column] = []
    for key in keys { keyColumns.append(table.column(at: try TableParameters.column(key, in: table))) }
    var sources: [Column?] = []
    for aggregate in aggregates {
      sources.append(try aggregate.column.map { table.column(at: try TableParameters.column($0, in: table)) })
    }
    /// The listed rows gathered and added in row order.
    func addGathered(_ stream: inout GroupByStream) throws {
      let listed = grouped.gathered(table, codes: codes.local, workers: workers)
      try stream.add(listed.table, codes: (listed.codes, codes.count), workers: workers)
    }
    let most = groupCount + codes.count
    let byGroup =
      workers <= 1 && most <= BlockSums.foldAllGroups && grouped.count >= most * Self.fusedRowsPerGroup
      && states.indices.allSatisfy { aggregates[$0].function == .count || states[$0].fuses(sources[$0]) }
    guard byGroup else { return try addGathered(&self) }
    var firstRow = [Int32](repeating: -1, count: codes.count)
    for group in 0..<codes.count where grouped.starts[group + 1] > grouped.starts[group] {
      firstRow[group] = grouped.rows[grouped.starts[group]]
    }
    let global = number(firstRow, keyColumns: keyColumns)
    // Each group's rows in one loop only while no two of the morsel's groups are one group of
    // the whole (their keys differ as `ColumnCodes` tells them apart); else in row order.
    let present = global.indices.filter { grouped.starts[$0 + 1] > grouped.starts[$0] }.map { global[$0] }
    guard Set(present).count == present.count else { return try addGathered(&self) }
    let startRow = rowsSeen
    rowsSeen += grouped.count
    if groupCount > Self.manyGroups && groupCount * Self.fewRowsPerGroup > rowsSeen { throw CSVMorsels.Fallback() }
    for index in states.indices {
      states[index].grow(to: groupCount)
      states[index].addGrouped(sources[index], grouped: grouped, global: global)
    }
    let summed = states.indices.filter { aggregates[$0].function != .count }
    guard !summed.isEmpty else { return }
    let segments = Self.segments(firstRow: startRow, rows: grouped.count, blockRows: blockRows)
    withFusedSums(summed, sources) { sums, columns in
      for segment in segments {
        BlockSums.addGrouped(
          &sums, columns, grouped: grouped, tableRows: grouped.tableRows(of: segment.rows), map: global,
          block: segment.block)
      }
    }
  }
}
