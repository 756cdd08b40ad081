import Dispatch
import Foundation
import Synchronization

/// The parallel loop of table operations (`Table.gathering`, `readCSV`'s parsing, the table
/// kernels). How many threads a loop may use is the caller's: kinds pass the run's
/// `EvaluationEnvironment.workers` (`flow run --threads N`; by default `defaultWorkers`, the
/// active processors). Results never depend on it — work is split by column or by morsel and
/// merged in order — so tests pass 1, 2 or 7 workers and compare bit for bit.
public enum TableParallelism {
  /// The worker count when none is asked for: the active processors (at least 1, at most 64).
  public static let defaultWorkers = max(1, min(64, ProcessInfo.processInfo.activeProcessorCount))

  /// The least cells (rows × columns) worth a second thread.
  public static let minimumCells = 1 << 16

  /// `body(i)` for each `i` in `0..<count`, on up to `workers` threads when `cells` is large;
  /// results in order.
  public static func map<Result: Sendable>(
    _ count: Int, cells: Int, workers: Int,
    _ body: @Sendable (Int) -> Result
  ) -> [Result] {
    map(count, threads: cells >= minimumCells ? workers : 1, body)
  }

  /// `body(i)` for each `i` in `0..<count`, on up to `threads` threads (items claimed in turn);
  /// results in order. On the calling thread when `threads` or `count` is at most 1.
  package static func map<Result: Sendable>(_ count: Int, threads: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
    guard min(threads, count) > 1 else { return (0..<count).map(body) }
    // Each item is claimed by one thread, which alone writes its slot; they are read after the
    // join (`UnsafeSlots`' invariants).
    let results = UnsafeSlots<Result>(count)
    forEach(count, threads: threads) { index in results[index] = body(index) }
    guard let all = results.all() else {
      preconditionFailure("Internal inconsistency: an item of the parallel map was not run")
    }
    return all
  }

  /// `body(i)` for each `i` in `0..<count`, on up to `threads` threads that claim the next `i`
  /// in turn (each `i` runs once, on one thread); returns when every `i` ran. On the calling
  /// thread when `threads` or `count` is at most 1. The one parallel loop: `map` and the CSV
  /// reader's block phases run on it.
  package static func forEach(_ count: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
    let threads = min(threads, count)
    guard threads > 1 else {
      for index in 0..<count { body(index) }
      return
    }
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        if index >= count { return }
        body(index)
      }
    }
  }
}
