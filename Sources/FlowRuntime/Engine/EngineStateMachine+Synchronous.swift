// Synchronous passes: a cheap store change runs its pass on the thread that delivered it.
//
// WHEN. `received(_:handingOver:)` hands the evaluator to the delivering thread instead of
// waking the runner when all of these hold: the engine is idle (no runner, no pass), nothing
// else is pending (no change, trigger, observer change, emission or dirty node), the change is
// not a reload and has at most `synchronousPassLimit` items, and the parked evaluator admits
// synchronous passes (no expensive node, no live node). Otherwise the change queues for the
// runner exactly as `received(_:)` does. The core re-checks after applying the change (the
// dirty count, a change that made the graph live or expensive) and may decline the pass.
//
// DURING. The phase is `.runningSynchronously`: the delivering thread holds the evaluator and
// no runner exists. Inputs arriving meanwhile (a trigger, an observer, a source ending) only
// queue — they cannot supersede the pass, and need not: the store delivers its changes one at
// a time, so no newer revision can reach the engine while the pass runs, and publishing its
// values can never put an older revision after a newer one. Waiters and readers queue as
// during a runner's pass.
//
// AFTER. `synchronousPassFinished` parks the evaluator and, for a completed pass, publishes as
// `passFinished` does. A pass that stopped at its time budget (or was declined) publishes
// nothing: its report is *handed over* and the runner, started at once since the revision is
// unpublished (even when the pass left no node dirty: a lazy pass may stop with nothing left
// that must run), continues the same revision; its next pass carries the report in
// `Work.continuing` and publishes one report for both parts. Whatever queued meanwhile starts
// the runner too.

extension EngineStateMachine {
  /// What to do with a store change delivered on a thread that may run a cheap pass itself.
  enum ReceiveAction: Sendable {
    /// Queued as by `received(_:)`: perform the input action.
    case queued(InputAction)
    /// Run this pass now, on the delivering thread, with the evaluator handed over; then
    /// call `synchronousPassFinished(_:evaluator:)`.
    case runSynchronously(Work)
  }

  /// The end of a synchronous pass: what to publish and what to start.
  struct SynchronousFinish: Sendable {
    /// The publication of a completed pass; `nil` when the pass was declined, handed over or
    /// ended by shutdown (nothing is streamed or resumed then).
    var publication: Publication?
    /// Readers that waited, when there is no publication to carry them.
    var readers: [@Sendable () -> Void]
    /// `.startRunner` when work remains (a handed-over rest, inputs that arrived meanwhile).
    var action: InputAction
  }

  /// A store change arrived on a thread that may run a cheap pass: see the file header.
  ///
  /// - Parameter evaluator: receives the evaluator for a synchronous pass, moved out of the
  ///   machine (as in `takeWork(handingOver:)`); untouched when the change is queued.
  mutating func received(_ change: FlowStoreChange, handingOver evaluator: inout Evaluator?) -> ReceiveAction {
    guard synchronousPassLimit > 0, phase == .idle, parked?.admitsSynchronousPasses == true, !hasWork,
      blocked.isEmpty, change.reloadedDocument == nil, change.expandedItemCount <= synchronousPassLimit
    else { return .queued(received(change)) }
    latestRevision = max(latestRevision, change.revision)
    phase = .runningSynchronously
    evaluator = parked.take()
    return .runSynchronously(Work(changes: [change], triggers: [], revision: latestRevision))
  }

  /// The synchronous pass returns the evaluator with its `report`: `nil` if the core declined
  /// to run it (too many dirty nodes, or the change made the graph live or expensive), a
  /// cancelled report if it stopped at its budget.
  mutating func synchronousPassFinished(_ report: EvaluationReport?, evaluator: Evaluator) -> SynchronousFinish {
    var returning: Evaluator? = evaluator
    return synchronousPassFinished(report, returning: &returning)
  }

  /// `synchronousPassFinished(_:evaluator:)` moving the evaluator in (`evaluator` becomes
  /// `nil`): no copy, so the parked evaluator stays the only reference to its storage.
  mutating func synchronousPassFinished(_ report: EvaluationReport?, returning evaluator: inout Evaluator?)
    -> SynchronousFinish
  {
    precondition(
      phase == .runningSynchronously || phase == .shutDown,
      "Internal inconsistency: a synchronous pass finished in phase \(phase)")
    precondition(parked == nil && evaluator != nil, "Internal inconsistency: a synchronous pass returned no evaluator")
    guard phase != .shutDown else {
      parked = evaluator.take()
      return SynchronousFinish(publication: nil, readers: serveReaders(), action: .none)
    }
    var finish: SynchronousFinish
    if let report, !report.wasCancelled {
      finish = SynchronousFinish(publication: passFinished(report, returning: &evaluator), readers: [], action: .none)
    } else {
      parked = evaluator.take()
      finish = SynchronousFinish(publication: nil, readers: serveReaders(), action: .none)
    }
    phase = .idle
    // A stopped or declined pass left its revision unpublished, which is work (`hasWork`):
    // the runner starts even when the pass left no node dirty.
    finish.action = startRunnerIfNeeded()
    if finish.action == .startRunner {
      handedOver = report.flatMap { $0.wasCancelled ? $0 : nil }
    } else if isLiveQuiescent {
      settledQuiescence += quiescenceWaiters
      quiescenceWaiters.removeAll()
    }
    return finish
  }
}
