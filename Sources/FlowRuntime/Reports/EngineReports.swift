/// `FlowEngine.reports`: the reports of the engine's passes, starting with the latest one.
///
/// Nothing is registered when the sequence is made: each iterator subscribes when it is made
/// (`for await` makes it when the loop begins), and its first element is the report of the
/// last completed pass at that moment, if a pass has completed. Every report published after
/// that follows, in publication order (superseded passes too, with `wasCancelled`), so a
/// reader that starts late — in a `Task` started after a cheap change was evaluated before
/// `updateNode` returned — still sees that change's report. Revisions never decrease.
///
/// Each iterator buffers at most `FlowEngine.reportBufferLimit` reports its reader has not
/// taken: when a pass finishes with the buffer full, the oldest buffered report is dropped.
/// An iterator made after `FlowEngine.shutDown()` yields the last report and ends. Ending the
/// loop, dropping the iterator or cancelling its task unsubscribes.
///
/// ```swift
/// try engine.store.updateNode(changed)        // a cheap pass runs before this returns
/// Task {
///   for await report in engine.reports {      // starts with that pass's report
///     print(report.revision, report.ran)
///   }
/// }
/// ```
public struct EngineReports: AsyncSequence, Sendable {
  public typealias Element = EvaluationReport
  public typealias Failure = Never

  let core: EngineCore

  /// Subscribes: the iterator's first element is the latest report.
  public func makeAsyncIterator() -> Iterator { Iterator(base: core.subscribeToReports().makeAsyncIterator()) }

  /// One subscription to the engine's reports.
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncStream<EvaluationReport>.Iterator

    /// The next report; `nil` once the engine shut down (after the buffered ones) or the task
    /// was cancelled.
    public mutating func next() async -> EvaluationReport? { await base.next() }

    /// The next report, on the caller's actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> EvaluationReport? {
      await base.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension EngineReports.Iterator: Sendable {}
