import FlowRuntime

// `BlockSums` of several columns at once: a pass over rows for all of a morsel's sums, the
// grouped pass over a morsel's rows listed by group, and the sums of a whole table.
extension BlockSums {
  /// Adds the values of `rows` of several columns without nulls, each to its own sums
  /// (`sums[i]` takes `columns[i]`; all over the same groups), in one pass over the rows: the
  /// same bits as `add` on each alone (each column's sum of a group sees its values in row
  /// order), at the cost of one pass, as each sum's additions overlap the others'.
  ///
  /// - Precondition: the sums have the same groups, at most `foldAllGroups`; the columns are
  ///   numeric, without nulls.
  /// - Complexity: O((rows + groups) × columns): every group's open sums move in and out, so a
  ///   caller fuses only morsels with several rows per group (`GroupByStream`).
  static func add(
    _ sums: inout [BlockSums], _ columns: [Column], rows: Range<Int>, groups: [Int32], map: [Int32]?, block: Int
  ) {
    precondition(sums.count == columns.count, "Internal inconsistency: fused block sums of other columns")
    withOpenSums(&sums, block: block) { open, counts in
      accumulate(columns, rows: rows, groups: groups, map: map, &open, &counts)
    }
  }

  /// `add` of several columns for the rows of a morsel that `grouped` lists within
  /// `tableRows` (all in block `block`), group by group (`accumulateGrouped`): each sum's
  /// additions in row order, the same bits as `add` on the listed rows alone.
  ///
  /// - Precondition: as `add` of several; `columns` are the morsel's (every row of `grouped`'s),
  ///   and `map` numbers the morsel's groups among the sums' (distinct ones).
  static func addGrouped(
    _ sums: inout [BlockSums], _ columns: [Column], grouped: GroupRows, tableRows: Range<Int>, map: [Int32],
    block: Int, tileRows: Int = groupedTileRows
  ) {
    precondition(sums.count == columns.count, "Internal inconsistency: grouped block sums of other columns")
    // Integer columns whose sums stay exact take their groups' integer sums (`addExactly`);
    // the others go through the grouped loop, lent out of `sums` so that they stay unique.
    var rest: [Int] = [], lent: [BlockSums] = []
    for index in sums.indices {
      if case .integer(let values) = columns[index].storage,
        sums[index].addExactly(values, grouped: grouped, tableRows: tableRows, map: map, block: block)
      {
        continue
      }
      rest.append(index)
      lent.append(sums[index])
      sums[index] = BlockSums(blockRows: sums[index].blockRows)
    }
    guard !rest.isEmpty else { return }
    withOpenSums(&lent, block: block) { open, counts in
      accumulateGrouped(
        rest.map { columns[$0] }, grouped: grouped, tableRows: tableRows, map: map,
        tileRows: tileRows, &open, &counts)
    }
    for (position, index) in rest.enumerated() { sums[index] = lent[position] }
  }

  /// The sums (means if `mean`) of `column` per group over a whole table: its blocks on up to
  /// `workers` threads when there are several and the groups are at most `foldAllGroups`
  /// (each block summed whole on one thread, folded in block order), else serially.
  static func column(
    of column: Column, groups: [Int32], groupCount: Int, mean: Bool, workers: Int,
    blockRows: Int = standardBlockRows
  ) -> Column {
    var sums = BlockSums(blockRows: blockRows)
    sums.grow(to: groupCount)
    let rows = min(groups.count, column.count), size = sums.blockRows
    let blocks = (rows + size - 1) / size
    if workers > 1, blocks > 1, groupCount <= foldAllGroups {
      let parts = TableParallelism.map(blocks, threads: workers) { block in
        part(
          column, rows: block * size..<min(rows, (block + 1) * size), groups: groups, map: nil, groupCount: groupCount)
      }
      for part in parts { sums.fold(part) }
    } else {
      for block in 0..<blocks {
        sums.add(column, rows: block * size..<min(rows, (block + 1) * size), groups: groups, map: nil, block: block)
      }
    }
    return sums.column(mean: mean)
  }
}
