import FlowRuntime

/// A sort of row indices in morsels: each morsel's rows sorted on the workers, then the sorted
/// runs merged pairwise (each round's merges on the workers) until one is left. The order must
/// be total (a tie broken by the row index, as `sort`'s is): then there is exactly one sorted
/// order, and runs and merges give the serial sort's rows at any morsel size and worker count.
enum SortRuns {
  /// `0..<rowCount` sorted by `less`.
  ///
  /// - Precondition: `less` is a strict total order on the rows (no two rows tie).
  /// - Throws: `CancellationError` if the task is cancelled between rounds.
  /// - Complexity: O(n log n) comparisons, on up to `morsels.workers` threads.
  static func sorted(_ rowCount: Int, morsels: TableMorsels, by less: @escaping @Sendable (Int32, Int32) -> Bool) throws
    -> [Int32]
  {
    try sorted(rowCount, morsels: morsels, entry: { $0 }, by: less)
  }

  /// The entries (`entry(row)` for each row of `0..<rowCount`) sorted by `less`: an entry
  /// may carry a row's first key beside the row, so most comparisons read no other array.
  ///
  /// - Precondition: `less` is a strict total order on the entries.
  static func sorted<Entry: Sendable>(
    _ rowCount: Int, morsels: TableMorsels, entry: @escaping @Sendable (Int32) -> Entry,
    by less: @escaping @Sendable (Entry, Entry) -> Bool
  ) throws -> [Entry] {
    var runs = morsels.map(rowCount) { range in
      var entries = (Int32(range.lowerBound)..<Int32(range.upperBound)).map(entry)
      entries.sort(by: less)
      return entries
    }
    while runs.count > 1 {
      if Task.isCancelled { throw CancellationError() }
      let round = runs
      runs = morsels.map(items: (round.count + 1) / 2) { pair in
        let first = round[2 * pair]
        return 2 * pair + 1 < round.count ? merged(first, round[2 * pair + 1], by: less) : first
      }
    }
    return runs.first ?? []
  }

  /// The rows of two sorted runs in one sorted run; a row of `first` goes before an equal one
  /// of `second` (stable).
  static func merged<Entry>(_ first: [Entry], _ second: [Entry], by less: (Entry, Entry) -> Bool) -> [Entry] {
    var result: [Entry] = []
    result.reserveCapacity(first.count + second.count)
    var i = 0, j = 0
    while i < first.count && j < second.count {
      if less(second[j], first[i]) {
        result.append(second[j]); j += 1
      } else {
        result.append(first[i]); i += 1
      }
    }
    result.append(contentsOf: first[i...])
    result.append(contentsOf: second[j...])
    return result
  }
}
