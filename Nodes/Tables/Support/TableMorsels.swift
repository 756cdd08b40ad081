import FlowRuntime

/// How a table kernel (`join`, `sort`, the writers) cuts rows into morsels and how many threads
/// work on them: by default `RowProgram.morselRows` rows (as `filter` and `derive`) on the run's
/// threads (`EvaluationEnvironment.workers`, `flow run --threads N`). Tests inject a small morsel size
/// and a worker count to split small tables. Every kernel joins its morsels' results in morsel
/// order, so the result never depends on either.
///
/// Invariants: `rows` ≥ 1 and `workers` ≥ 1.
struct TableMorsels: Sendable {
  let rows: Int
  let workers: Int

  init(rows: Int, workers: Int) {
    self.rows = max(1, rows)
    self.workers = max(1, workers)
  }

  /// The morsels of `filter` and `derive`, on `workers` threads (a kind passes its
  /// `EvaluationEnvironment.workers`).
  init(workers: Int) { self.init(rows: RowProgram.morselRows, workers: workers) }

  /// One thread, one morsel per table: the serial form every parallel kernel must equal.
  static let serial = TableMorsels(rows: .max, workers: 1)

  /// The morsel ranges of `count` rows, in order (one empty range for no rows).
  func ranges(_ count: Int) -> [Range<Int>] {
    guard count > rows else { return [0..<count] }
    return stride(from: 0, to: count, by: rows).map { $0..<min(count, $0 + rows) }
  }

  /// `body` of each morsel of `count` rows, in morsel order; on up to `workers` threads when
  /// there are several morsels. `body` runs on the calling thread when there is one worker or
  /// one morsel (so its `Task.isCancelled` is the caller's).
  func map<Result: Sendable>(_ count: Int, _ body: @Sendable (Range<Int>) -> Result) -> [Result] {
    let ranges = ranges(count)
    return map(items: ranges.count) { body(ranges[$0]) }
  }

  /// `body(i)` for each `i` in `0..<items`, in order, on up to `workers` threads.
  func map<Result: Sendable>(items: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
    TableParallelism.map(items, threads: workers, body)
  }

  /// `body(i)` for each of `count` columns of `rows` rows, in order: one column per thread
  /// when the cells are many (`TableParallelism.minimumCells`, as `Table.gathering`).
  func mapColumns<Result: Sendable>(_ count: Int, rows: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
    guard rows * count >= TableParallelism.minimumCells || rows > self.rows else { return (0..<count).map(body) }
    return map(items: count, body)
  }

  /// The concatenation of `parts`, in order.
  static func joined<Element>(_ parts: [[Element]]) -> [Element] {
    if parts.count == 1 { return parts[0] }
    var all: [Element] = []
    all.reserveCapacity(parts.reduce(0) { $0 + $1.count })
    for part in parts { all.append(contentsOf: part) }
    return all
  }
}
