// Waiting and reading: `evaluate()`'s waiters (settled at once, or when a pass publishes their
// revision or the runner goes idle) and readers of the parked evaluator.

extension EngineStateMachine {
  /// Whether a waiter for `revision` is settled now, and with what.
  enum WaitOutcome: Sendable {
    /// Resume the waiter at once with this report (`nil`: the engine shut down).
    case resume(EvaluationReport?)
    /// The waiter was queued; a later transition resumes it.
    case queued
  }

  /// `evaluate()` waits until revision `revision` is evaluated.
  ///
  /// It is settled at once if the engine is shut down (with `nil`), or idle with that revision
  /// complete (with the last report); otherwise it waits for the first publication of a
  /// revision at least `revision` and at least the newest one received.
  mutating func waiterArrived(_ waiter: Waiter, revision: Int) -> WaitOutcome {
    if let settled = settledWaiter(revision: revision) { return settled }
    waiters.append((max(revision, latestRevision), waiter))
    return .queued
  }

  /// How a waiter for `revision` is settled at once (`waiterArrived`'s first case), or `nil`
  /// if it would have to wait: `evaluate()`'s fast path, with no waiter token to make.
  func settledWaiter(revision: Int) -> WaitOutcome? {
    switch phase {
    case .shutDown: .resume(nil)
    case .idle where completedRevision >= revision && !hasWork: .resume(lastReport)
    default: nil
    }
  }

  /// A read of the evaluator: served now from the parked evaluator, or queued until the
  /// running pass returns it.
  mutating func readerArrived(_ reader: @escaping Reader) -> (@Sendable () -> Void)? {
    if let parked { return reader(parked) }
    readers.append(reader)
    return nil
  }

  /// The readers that waited for the evaluator, served from the parked one.
  mutating func serveReaders() -> [@Sendable () -> Void] {
    guard !readers.isEmpty, let parked else { return [] }
    defer { readers.removeAll() }
    return readers.map { $0(parked) }
  }

  mutating func takeWaiters(upTo revision: Int) -> [Waiter] {
    guard !waiters.isEmpty else { return [] }
    var resumed: [Waiter] = []
    waiters.removeAll { entry in
      guard entry.revision <= revision else { return false }
      resumed.append(entry.waiter)
      return true
    }
    return resumed
  }
}
