import Dispatch
import FlowRuntime
import Foundation

/// Morsels made on several threads and taken in order on the caller's: `produce(i)` for each
/// `i` in `0..<count` runs on up to `workers` threads of the pipeline's own (a Parquet file's
/// row groups, each decoded and passed through a streamed chain's row-local nodes), and
/// `consume` gets the results in index order on the calling thread (the chain's sink).
///
/// At most `window` morsels are claimed ahead of the one `consume` waits for (made, being
/// made, or waiting): memory is that many morsels, whatever the file's size. The results do
/// not depend on the thread count: each `i` is made by one call, and consumed in order.
///
/// The bookkeeping is a pure state (`State`: whether a thread may claim the next morsel, which
/// morsel the consumer may take) driven by semaphores, as `CSVMorselHandoff`: `space` wakes a
/// producer when the consumer took a morsel, `ready` wakes the consumer when a morsel is made,
/// `finished` counts the producers that returned. The producers block only their own threads
/// (never Dispatch's pool, which the nodes' parallel loops use), and the call returns only
/// once every producer has.
enum MorselPipeline {
  /// The pipeline's bookkeeping.
  struct State<Item: Sendable>: Sendable {
    let count: Int
    let window: Int
    /// The next morsel to claim.
    private(set) var next = 0
    /// The morsel the consumer takes next.
    private(set) var consumed = 0
    /// Made morsels the consumer has not taken.
    private var made: [Int: Result<Item, any Error>] = [:]
    /// No more claims: the consumer left, or a morsel failed.
    private(set) var stopped = false

    init(count: Int, window: Int) {
      self.count = count
      self.window = Swift.max(1, window)
    }

    enum Claim: Equatable {
      /// Make this morsel.
      case produce(Int)
      /// Wait for the consumer to take one.
      case wait
      /// Return: nothing is left to claim.
      case finish
    }

    /// What a producer does next.
    mutating func claim() -> Claim {
      if stopped || next >= count { return .finish }
      if next >= consumed + window { return .wait }
      next += 1
      return .produce(next - 1)
    }

    /// Morsel `index` was made (or failed: no morsel after it is claimed).
    mutating func complete(_ index: Int, _ result: Result<Item, any Error>) {
      if case .failure = result { stopped = true }
      made[index] = result
    }

    /// The consumer's next morsel if it is made (`nil`: wait), `.success(nil)` after the last.
    mutating func take() -> Result<Item?, any Error>? {
      if consumed >= count { return .success(nil) }
      guard let result = made.removeValue(forKey: consumed) else { return nil }
      consumed += 1
      return result.map { $0 }
    }

    /// The consumer left: no more claims.
    mutating func stop() { stopped = true }
  }

  /// Runs `produce` for `0..<count` on up to `workers` threads and hands the results to
  /// `consume` in order (see the type). With one worker or one morsel, everything runs on the
  /// calling thread, one morsel at a time.
  ///
  /// - Parameter window: the most morsels claimed ahead of the consumer (at least 1; by
  ///   default one per worker and one more).
  /// - Throws: the first failing morsel's error (in index order) or `consume`'s, or
  ///   `CancellationError` when the task is cancelled; then no morsel is claimed anymore, and
  ///   the call returns once the producers have.
  static func run<Item: Sendable>(
    count: Int, workers: Int, window: Int? = nil,
    produce: @escaping @Sendable (Int) throws -> Item,
    consume: (Item) throws -> Void
  ) throws {
    let threads = Swift.min(Swift.max(1, workers), count)
    guard threads > 1 else {
      for index in 0..<count {
        try consume(try produce(index))
        if Task.isCancelled { throw CancellationError() }
      }
      return
    }
    let state = Locked(State<Item>(count: count, window: window ?? threads + 1))
    let space = DispatchSemaphore(value: 0)
    let ready = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    for _ in 0..<threads {
      Thread {
        while true {
          switch state.withLock({ $0.claim() }) {
          case .finish:
            finished.signal()
            return
          case .wait:
            space.wait()
          case .produce(let index):
            let result = Result { try produce(index) }
            state.withLock { $0.complete(index, result) }
            ready.signal()
          }
        }
      }.start()
    }
    defer {
      state.withLock { $0.stop() }
      for _ in 0..<threads { space.signal() }
      for _ in 0..<threads { finished.wait() }
    }
    while true {
      guard let taken = state.withLock({ $0.take() }) else {
        ready.wait()
        continue
      }
      guard let item = try taken.get() else { return }
      space.signal()
      try consume(item)
      if Task.isCancelled { throw CancellationError() }
    }
  }
}
