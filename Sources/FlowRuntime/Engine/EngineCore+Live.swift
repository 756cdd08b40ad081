import FlowGraph

// The effects of live sources: starting and stopping their tasks, carrying their emissions
// into the state machine's bounded buffer (suspending a source while it is full), observers,
// and waiting for quiescence. Every decision is the state machine's; this file performs them.

extension EngineCore {
  /// Stops and starts sources as the evaluator asked after a batch of edits.
  func performLiveChanges(_ changes: LiveChanges) {
    for token in changes.stops { stopSource(token) }
    for start in changes.starts { startSource(start) }
  }

  /// Starts a task running `start.source`. The task is created under the lock (creating a task
  /// only enqueues it), so the handle stored is always the task that exists.
  func startSource(_ start: LiveSourceStart) {
    let token = start.token
    let node = start.node
    let emitter = LiveEmitter(clock: clock) { [weak self] outputs, state in
      await self?.emit(LiveEmission(token: token, node: node, outputs: outputs, state: state)) ?? false
    }
    state.withLock { state in
      guard !state.isShutDown else { return }
      state.machine.sourceStarted(token)
      state.sourceTasks[token] = Task { [self] in
        var marker = LiveEmission(token: token, node: node, event: .finished)
        do {
          try await start.source.run(from: start.state, emitter)
        } catch is CancellationError {
          marker.event = .failed("cancelled")
        } catch {
          marker.event = .failed(GraphEvaluator.message(of: error))
        }
        if !Task.isCancelled { transition { $0.sourceEnded(marker) } }
        sourceTaskEnded(token)
      }
    }
  }

  /// Stops source `token`: cancels its task and releases its emission held for room.
  func stopSource(_ token: UInt64) {
    let (task, resumes, settled) = state.withLock { state in
      (state.sourceTasks[token], state.machine.sourceStopped(token), state.machine.takeSettledQuiescence())
    }
    task?.cancel()
    for resume in resumes { resume(false) }
    for resume in settled { resume() }
  }

  func stopAllSources() {
    for token in state.withLock({ Array($0.sourceTasks.keys) }) { stopSource(token) }
  }

  private func sourceTaskEnded(_ token: UInt64) {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.sourceTasks[token] = nil
      guard state.sourceTasks.isEmpty else { return [] }
      defer { state.sourceStopWaiters.removeAll() }
      return state.sourceStopWaiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Hands an emission to the buffer; suspends while it is full. Returns `false` once the
  /// source is stopped.
  func emit(_ emission: LiveEmission) async -> Bool {
    switch emitTransition(emission, resume: nil) {
    case .accepted: return true
    case .rejected, .suspended: return false
    case .full:
      return await withCheckedContinuation { continuation in
        switch emitTransition(emission, resume: { continuation.resume(returning: $0) }) {
        case .accepted: continuation.resume(returning: true)
        case .rejected, .full: continuation.resume(returning: false)
        case .suspended: break
        }
      }
    }
  }

  private func emitTransition(
    _ emission: LiveEmission,
    resume: (@Sendable (Bool) -> Void)?
  ) -> EngineState.Machine.EmitOutcome {
    state.withLock { state in
      let outcome = state.machine.emitted(emission, resume: resume)
      if case .accepted(.startRunner) = outcome { state.runner = Task { [self] in await runLoop() } }
      return outcome
    }
  }

  /// How many source tasks are alive.
  var runningSourceCount: Int { state.withLock { $0.sourceTasks.count } }

  /// Waits until no source task is alive.
  func waitUntilNoSourceRuns() async {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state -> Bool in
        guard !state.sourceTasks.isEmpty else { return true }
        state.sourceStopWaiters.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
  }

  /// Waits until the engine is idle with every source ended, or the emission limit reached.
  func waitForQuiescence() async {
    await withCheckedContinuation { continuation in
      let now = state.withLock { $0.machine.quiescenceWaiterArrived { continuation.resume() } }
      if now { continuation.resume() }
    }
  }

  /// Stops taking emissions once `total` were processed.
  func limitEmissions(to total: Int?) {
    var settled: [@Sendable () -> Void] = []
    transition { machine in
      let action = machine.limitEmissions(to: total ?? machine.processedEmissions)
      settled = machine.takeSettledQuiescence()
      return action
    }
    for resume in settled { resume() }
  }
}
