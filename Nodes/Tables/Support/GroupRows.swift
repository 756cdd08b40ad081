import FlowRuntime

/// A morsel's rows listed group by group: for each of its groups (`GroupByStream.codes`' codes,
/// numbered in the morsel), the group's rows in increasing order, the groups one after the
/// other (a stable counting sort, `UnsafeGroupRows`), over the rows a `filter` kept
/// (`selection`) or every row.
///
/// A streamed `groupBy` adds each group's values in one loop of its own (`BlockSums.addGrouped`):
/// the running sums stay in registers instead of making a trip through memory per row, and a
/// `filter` just before the chain's `derive`s and `select`s needs no gather of its rows
/// (`StreamedChain`): the rows it dropped are simply in no group's list.
///
/// Invariant: every listed row lies below `rowCount` (the sort checks the codes and the
/// selection before it lists a row), and the lists are fixed once made.
struct GroupRows: Sendable {
  /// Group `g`'s rows are `rows[starts[g]..<starts[g + 1]]`, increasing.
  let starts: [Int]
  /// Every listed row (table rows, not positions in `selection`), group after group.
  let rows: [Int32]
  /// The rows listed, increasing (`nil`: every row of the morsel).
  let selection: [Int32]?
  /// The morsel's rows (every listed row is below it).
  let rowCount: Int

  /// The rows of `codes` (`codes[row]` is the row's group, below `groupCount`) listed by group,
  /// only those of `selection` when given.
  ///
  /// - Precondition: every code lies in `0..<groupCount` and every selected row in
  ///   `0..<codes.count` (checked).
  init(codes: [Int32], groupCount: Int, selection: [Int32]?) {
    let sorted = UnsafeGroupRows.sort(codes: codes, groupCount: groupCount, selection: selection)
    starts = sorted.starts
    rows = sorted.rows
    self.selection = selection
    rowCount = codes.count
  }

  /// The wrapping sum of `values` at the rows at `positions` of `rows`, and its net carries
  /// past `Int64` (each addition that overflows counted by its value's sign).
  ///
  /// - Precondition: `values` holds the morsel's rows (at least `rowCount`); `positions` lies
  ///   in `rows` (both checked).
  func sum(of values: [Int64], at positions: Range<Int>) -> (sum: Int64, carries: Int64) {
    precondition(
      values.count >= rowCount && positions.lowerBound >= 0 && positions.upperBound <= rows.count,
      "Internal inconsistency: a sum past a morsel's listed rows")
    return UnsafeGroupRows.sum(values, rows[positions])
  }

  /// How many rows are listed (the selection's count, or the morsel's).
  var count: Int { rows.count }

  /// The groups.
  var groupCount: Int { starts.count - 1 }

  /// The table row of the `index`th listed row in row order.
  func tableRow(_ index: Int) -> Int { selection.map { Int($0[index]) } ?? index }

  /// The positions in `rows` of group `group`'s rows that lie in `tableRows`.
  ///
  /// - Complexity: O(log rows of the group).
  func positions(of group: Int, in tableRows: Range<Int>) -> Range<Int> {
    let all = starts[group]..<starts[group + 1]
    return first(in: all, atLeast: tableRows.lowerBound)..<first(in: all, atLeast: tableRows.upperBound)
  }

  /// The table rows of the listed rows at positions `range` in row order (`0..<count`): the
  /// rows from the first one's up to the next listed one's (or the morsel's end, `rowCount`).
  func tableRows(of range: Range<Int>) -> Range<Int> {
    let lower = range.lowerBound < count ? tableRow(range.lowerBound) : rowCount
    let upper = range.upperBound < count ? tableRow(range.upperBound) : rowCount
    return lower..<upper
  }

  /// The first position in `positions` whose row is at least `row` (its end if none).
  func first(in positions: Range<Int>, atLeast row: Int) -> Int {
    var low = positions.lowerBound, high = positions.upperBound
    while low < high {
      let middle = low + (high - low) / 2
      if Int(rows[middle]) < row { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The table with only the listed rows, and the listed rows' codes: what a consumer that
  /// reads every row (not by group) takes.
  func gathered(_ table: Table, codes: [Int32], workers: Int) -> (table: Table, codes: [Int32]) {
    guard let selection else { return (table, codes) }
    return (table.gathering(selection, workers: workers), selection.map { codes[Int($0)] })
  }
}
