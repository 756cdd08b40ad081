// The live side of the engine's state machine: the bounded emission buffer and
// back-pressure, sources starting and ending, observers, and waiting for quiescence.
//
// BUFFER. A source's emission is appended while fewer than `emissionCapacity` are queued;
// otherwise `emitted` answers `.full` and the core retries with a resume closure: the
// emission is then held in `blocked` (one per source at most, since its task is suspended)
// and admitted, in arrival order, once the runner has drained the buffer to half its
// capacity. Nothing is dropped and memory is bounded by capacity + sources.
//
// PASSES. `takeWork` hands out at most one emission per pass, after the pending edits. An
// emission does not supersede the running pass (a fast source would starve the engine); it is
// simply taken by the next `takeWork`, so the runner drains the buffer in its loop with no
// task hop per pass. A pass the evaluator stopped puts its emission back at the head, so the
// next pass processes it once; a completed pass counts it in `processedEmissions`.

extension EngineStateMachine {
  /// What happened to an emission.
  enum EmitOutcome {
    /// Queued; perform the action (start the runner).
    case accepted(InputAction)
    /// The buffer is full: retry with a resume closure (the source then suspends).
    case full
    /// Held until the buffer drains; the closure is called then.
    case suspended
    /// The source was stopped (or the engine shut down): the source must end.
    case rejected
  }

  var queuedEmissionCount: Int { emissions.count - emissionHead }

  var limitReached: Bool { emissionLimit.map { processedEmissions >= $0 } ?? false }

  /// Whether an emission can be taken by the next pass.
  var canTakeEmission: Bool { queuedEmissionCount > 0 && !limitReached }

  /// No source runs and nothing is queued, or the emission limit is reached.
  var isLiveQuiescent: Bool { (sources.isEmpty && queuedEmissionCount == 0 && blocked.isEmpty) || limitReached }

  /// A source emitted. Without `resume`, a full buffer answers `.full`; with it, the emission
  /// is held and `resume(true)` is called once it is admitted (`resume(false)` if the source
  /// is stopped first).
  mutating func emitted(_ emission: LiveEmission, resume: (@Sendable (Bool) -> Void)? = nil) -> EmitOutcome {
    guard phase != .shutDown, sources.contains(emission.token) else { return .rejected }
    guard queuedEmissionCount < emissionCapacity else {
      guard let resume else { return .full }
      blocked.append((emission, resume))
      return .suspended
    }
    emissions.append(emission)
    return .accepted(emissionArrived())
  }

  /// An emission (or a source's end) was queued: start the runner if idle; never supersede.
  mutating func emissionArrived() -> InputAction {
    phase == .running ? .none : startRunnerIfNeeded()
  }

  /// Pops the next emission for a pass.
  mutating func takeEmission() -> LiveEmission? {
    guard canTakeEmission else { return nil }
    let emission = emissions[emissionHead]
    emissionHead += 1
    if emissionHead == emissions.count {
      emissions.removeAll(keepingCapacity: true)
      emissionHead = 0
    } else if emissionHead >= 1024 && emissionHead * 2 >= emissions.count {
      emissions.removeFirst(emissionHead)
      emissionHead = 0
    }
    return emission
  }

  /// Moves held emissions into the buffer once it has drained to half; returns their resumes.
  mutating func admitBlocked() -> [@Sendable (Bool) -> Void] {
    guard !blocked.isEmpty, queuedEmissionCount <= emissionCapacity / 2 else { return [] }
    var resumes: [@Sendable (Bool) -> Void] = []
    while !blocked.isEmpty && queuedEmissionCount < emissionCapacity {
      let entry = blocked.removeFirst()
      emissions.append(entry.emission)
      resumes.append(entry.resume)
    }
    return resumes
  }

  /// Accounts for the emission of the pass that just finished.
  mutating func emissionPassFinished(stopped: Bool) {
    guard let emission = runningEmission else { return }
    runningEmission = nil
    guard emission.event == .value else { return }
    if stopped {
      if emissionHead > 0 {
        emissionHead -= 1
        emissions[emissionHead] = emission
      } else {
        emissions.insert(emission, at: 0)
      }
    } else {
      processedEmissions += 1
    }
  }

  // MARK: Sources

  /// A source task was started with `token`.
  mutating func sourceStarted(_ token: UInt64) {
    guard phase != .shutDown else { return }
    sources.insert(token)
  }

  /// Source `token` was stopped (its node left, was reconfigured or became unnecessary):
  /// its held emission is dropped. Returns the resumes to call with `false`.
  mutating func sourceStopped(_ token: UInt64) -> [@Sendable (Bool) -> Void] {
    sources.remove(token)
    var resumes: [@Sendable (Bool) -> Void] = []
    blocked.removeAll { entry in
      guard entry.emission.token == token else { return false }
      resumes.append(entry.resume)
      return true
    }
    if phase == .idle && isLiveQuiescent { settledQuiescence += quiescenceWaiters; quiescenceWaiters.removeAll() }
    return resumes
  }

  /// Source `marker.token`'s `run` ended (finished or failed): the marker is queued after its
  /// emissions. Ignored for a source already stopped.
  mutating func sourceEnded(_ marker: LiveEmission) -> InputAction {
    guard sources.remove(marker.token) != nil, phase != .shutDown else { return .none }
    emissions.append(marker)
    return emissionArrived()
  }

  // MARK: Observers and quiescence

  /// An observer of `id` was added (`delta` 1) or removed (-1): applied before the next pass.
  mutating func observationChanged(_ id: String, delta: Int32) -> InputAction {
    guard phase != .shutDown else { return .none }
    pendingObservations.append((id, delta))
    return inputArrived()
  }

  /// Stop taking emissions once `total` were processed (the running pass finishes). A raised
  /// limit lets queued emissions in again: an idle engine starts its runner for them.
  mutating func limitEmissions(to total: Int) -> InputAction {
    emissionLimit = total
    if phase == .idle && isLiveQuiescent { settledQuiescence += quiescenceWaiters; quiescenceWaiters.removeAll() }
    return startRunnerIfNeeded()
  }

  /// Waits until the engine is idle with every source ended (or the emission limit reached).
  /// Returns `true` if that is already so (resume at once).
  mutating func quiescenceWaiterArrived(_ resume: @escaping @Sendable () -> Void) -> Bool {
    if phase == .shutDown || (phase == .idle && isLiveQuiescent) { return true }
    quiescenceWaiters.append(resume)
    return false
  }

  /// The quiescence waiters settled by the last transitions, to resume after the lock.
  mutating func takeSettledQuiescence() -> [@Sendable () -> Void] {
    guard !settledQuiescence.isEmpty else { return [] }
    defer { settledQuiescence.removeAll() }
    return settledQuiescence
  }
}
