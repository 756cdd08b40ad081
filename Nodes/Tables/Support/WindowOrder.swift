import FlowRuntime

/// `window`'s partitions, each in its `orderBy` order: the table's rows as positions
/// (`rows[p]`), partition after partition (in order of first appearance), each partition's
/// rows sorted by the `orderBy` keys (nulls last, ties in input order).
///
/// Invariants: `rows` is a permutation of the table's rows; `partitions` are consecutive,
/// non-empty ranges of positions covering `0..<rows.count`; `newPeer[p]` (when peers were
/// asked for) is true where position `p` starts a partition or its `orderBy` keys differ from
/// those of position `p − 1`.
struct WindowOrder: Sendable {
  let rows: [Int32]
  let partitions: [Range<Int>]
  let newPeer: [Bool]

  /// The order of `rowCount` rows partitioned by `partitionColumns` (no columns: one
  /// partition) and ordered by `orderColumns`.
  ///
  /// - Parameters:
  ///   - peers: whether to compute `newPeer` (for `rank` and `denseRank`).
  ///   - workers: the threads of the partition codes (`GroupCodes`).
  ///   - morsels: the morsels and threads of the sort (`SortNode.Evaluator.order`).
  /// - Throws: cancellation from the sort.
  /// - Complexity: O(rows) without `orderBy`, else the sort's O(rows log rows), in parallel.
  init(
    rowCount: Int, partitionColumns: [Column], orderColumns: [(column: Column, descending: Bool)],
    peers: Bool, workers: Int, morsels: TableMorsels
  ) throws {
    var groups: [Int32] = []
    var groupCount = 1
    if !partitionColumns.isEmpty {
      (groups, groupCount) = GroupCodes.codes(of: partitionColumns, rowCount: rowCount, workers: workers)
    }
    if orderColumns.isEmpty {
      rows = partitionColumns.isEmpty ? (0..<rowCount).map(Int32.init) : Self.countingSort(groups, groupCount)
    } else {
      var keys = orderColumns
      if !partitionColumns.isEmpty { keys.insert((Column(.integer(groups.map(Int64.init))), false), at: 0) }
      rows = try SortNode.Evaluator.order(rowCount: rowCount, keys, morsels: morsels)
    }
    var partitions: [Range<Int>] = []
    var start = 0
    for position in 0..<rowCount
    where position > 0 && !groups.isEmpty
      && groups[Int(rows[position])] != groups[Int(rows[position - 1])]
    {
      partitions.append(start..<position)
      start = position
    }
    if rowCount > start { partitions.append(start..<rowCount) }
    self.partitions = partitions
    var newPeer: [Bool] = []
    if peers {
      newPeer = [Bool](repeating: false, count: rowCount)
      let keys = SortKeys(orderColumns.map { ($0.column, false) }, morsels: morsels)
      for partition in partitions {
        newPeer[partition.lowerBound] = true
        for position in partition.dropFirst() {
          newPeer[position] = !Self.samePeer(keys, Int(rows[position - 1]), Int(rows[position]))
        }
      }
    }
    self.newPeer = newPeer
  }

  /// Rows by group, each group's rows in input order (a stable counting sort).
  private static func countingSort(_ groups: [Int32], _ groupCount: Int) -> [Int32] {
    var next = [Int](repeating: 0, count: groupCount + 1)
    for group in groups { next[Int(group) + 1] += 1 }
    for group in 0..<groupCount { next[group + 1] += next[group] }
    var rows = [Int32](repeating: 0, count: groups.count)
    for (row, group) in groups.enumerated() {
      rows[next[Int(group)]] = Int32(row)
      next[Int(group)] += 1
    }
    return rows
  }

  /// Whether rows `a` and `b` have equal `orderBy` keys (null equals null here).
  private static func samePeer(_ keys: SortKeys, _ a: Int, _ b: Int) -> Bool {
    for key in keys.values.indices {
      let aNull = keys.nulls[key]?[a] ?? false, bNull = keys.nulls[key]?[b] ?? false
      if aNull != bNull { return false }
      if !aNull && keys.values[key][a] != keys.values[key][b] { return false }
    }
    return true
  }

  /// Consecutive runs of whole partitions of about `target` positions each (at least one
  /// partition per run), so that runs can be computed on separate threads.
  func runs(target: Int) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var first = 0
    while first < partitions.count {
      var last = first
      while last + 1 < partitions.count && partitions[last + 1].upperBound - partitions[first].lowerBound <= target {
        last += 1
      }
      runs.append(first..<(last + 1))
      first = last + 1
    }
    return runs
  }
}
