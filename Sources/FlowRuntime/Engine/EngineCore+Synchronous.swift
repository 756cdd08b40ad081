import FlowGraph

// The effects of synchronous passes (`EngineStateMachine+Synchronous.swift` decides): a cheap
// store change is evaluated on the thread that delivered it — the thread that called
// `updateNode`, unless another thread was delivering the store's changes at that moment —
// outside both the store's lock and the engine's, and published before the mutation returns.

extension EngineCore {
  /// A store change, on the thread that delivered it: evaluated right here if the state
  /// machine hands the evaluator over; otherwise queued for the runner (which a running pass's
  /// policy may make supersede it).
  func receive(_ change: FlowStoreChange) {
    var taken: EvaluatorCell?
    let action = state.withLock { state in
      tell(&state.machine)
      let action = state.machine.received(change, handingOver: &taken)
      if case .queued(.startRunner) = action { state.runner = Task { [self] in await runLoop() } }
      #if FLOW_INTERNAL_CHECKS
      state.machine._checkInvariants()
      #endif
      return action
    }
    switch action {
    case .queued(let input):
      if input == .signalSupersession { signalSupersession() }
    case .runSynchronously(let work):
      precondition(taken != nil, "Internal inconsistency: a synchronous pass without an evaluator")
      let report = runSynchronousPass(work, on: &taken!.evaluator)
      finishSynchronousPass(report, returning: &taken)
    }
  }

  /// Applies the change and evaluates, within the budget; `nil` if the pass is not cheap after
  /// all (too many dirty nodes, or the change made the graph live or expensive).
  ///
  /// The pass polls `supersede` (set by shutdown) and the clock through the scheduler's
  /// `shouldStop` seam; stopping leaves the unreached nodes dirty for the runner.
  private func runSynchronousPass(_ work: EngineState.Machine.Work, on evaluator: inout GraphEvaluator)
    -> EvaluationReport?
  {
    prepare(work, on: &evaluator)
    guard evaluator.admitsSynchronousPasses, evaluator.dirtySet.list.count <= options.synchronousPassLimit else {
      return nil
    }
    supersede.store(false, ordering: .relaxed)
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: options.synchronousPassBudget)
    var report = evaluator.evaluate(revision: work.revision) { [self] in
      supersede.load(ordering: .relaxed) || clock.now >= deadline
    }
    if evaluator.runCache != nil { report = evaluator.finishCachedPass(report) }
    #if FLOW_INTERNAL_CHECKS
    evaluator._checkInvariants()
    #endif
    return report
  }

  /// Parks the evaluator and publishes a completed pass (streams under the lock, readers and
  /// waiters after); starts the runner for a handed-over rest or for inputs that queued.
  private func finishSynchronousPass(_ report: EvaluationReport?, returning evaluator: inout EvaluatorCell?) {
    let (finish, settled) = state.withLock { state in
      tell(&state.machine)
      let finish = state.machine.synchronousPassFinished(report, returning: &evaluator)
      if finish.action == .startRunner { state.runner = Task { [self] in await runLoop() } }
      if let publication = finish.publication { stream(publication, in: &state) }
      #if FLOW_INTERNAL_CHECKS
      state.machine._checkInvariants()
      #endif
      return (finish, state.machine.takeSettledQuiescence())
    }
    for deliver in finish.readers { deliver() }
    if let publication = finish.publication {
      for deliver in publication.readers { deliver() }
      for waiter in publication.resumed { waiter.resume(returning: publication.report) }
    }
    for resume in settled { resume() }
  }
}
