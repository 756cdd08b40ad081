import FlowGraph

/// What the engine's state machine needs to know of the evaluator it parks.
protocol ParkedEvaluator: Sendable {
  /// Whether some node waits to be recomputed.
  var hasPendingWork: Bool { get }
  /// Whether a pass of this evaluator may run synchronously on a mutating thread: no node is
  /// expensive and no node is live (emissions and sources stay with the runner).
  var admitsSynchronousPasses: Bool { get }
}

/// The pure state machine behind `FlowEngine`: every transition of the engine's shared state,
/// and the effects each one asks for.
///
/// `EngineCore` holds this struct behind one lock, calls a transition, and performs the
/// returned action after the lock is released. No transition blocks, suspends, calls out or
/// reads a clock, so every interleaving of the engine's inputs (store changes, triggers,
/// waiters, readers, the runner's steps, shutdown) is a sequence of plain method calls that a
/// unit test can replay without threads (`EngineStateMachineTests`).
///
/// The runner is a task the core starts when a transition returns `.startRunner`; it loops
/// `takeWork()` → run the pass → `passFinished(_:evaluator:)` until `takeWork()` returns
/// `.becomeIdle`. The evaluator is *parked* here between passes and *taken* by the runner
/// during one — or, for a cheap store change reaching an idle engine, by the thread that
/// delivered it (`received(_:handingOver:)` → `synchronousPassFinished`, see
/// `EngineStateMachine+Synchronous.swift`).
///
/// Invariants (checked by `_checkInvariants()` in debug builds):
/// - `parked == nil` exactly while the runner or a synchronous pass holds the evaluator
///   (`phase == .running` or `.runningSynchronously`).
/// - `phase == .idle` implies there is no work once started: an idle engine with work is a
///   lost wake-up.
/// - Every waiter waits for a revision greater than `completedRevision`, or the runner is
///   active and will settle it when it next publishes or becomes idle.
/// - Readers wait only while the evaluator is taken.
/// - After `shutDown()` no waiter, reader or runner start is ever added.
///
/// Generic over the evaluator and the waiter token so tests drive it with plain values.
struct EngineStateMachine<Evaluator: ParkedEvaluator, Waiter: Sendable>: Sendable {
  /// Where the runner is.
  enum Phase: Equatable, Sendable {
    /// No runner: nothing to do.
    case idle
    /// A runner task exists; it holds the evaluator while a pass runs.
    case running
    /// No runner: the thread that delivered a store change holds the evaluator for a cheap
    /// pass. Inputs meanwhile only queue; finishing the pass starts the runner for them.
    case runningSynchronously
    /// Shut down: no runner starts again; the one that runs stops at its next step.
    case shutDown
  }

  /// A pass to run: the evaluator and what to apply to it first.
  struct Work: Sendable {
    var changes: [FlowStoreChange]
    var triggers: [String]
    /// The revision the pass brings the values up to.
    var revision: Int
    /// The emission this pass processes (each emission is a pass of its own).
    var emission: LiveEmission? = nil
    /// Observers added (+1) or removed (-1) since the last pass.
    var observations: [(id: String, delta: Int32)] = []
    /// Sources that waited for room in the emission buffer: resume them (with `true`).
    var resumeProducers: [@Sendable (Bool) -> Void] = []
    /// The report of a synchronous pass that stopped at its budget and handed its remaining
    /// nodes to this pass: this pass continues it (`EvaluationReport.continued(by:)`).
    var continuing: EvaluationReport? = nil
  }

  /// A reader: computes its result from the parked evaluator (under the lock) and returns the
  /// effect that delivers it (performed after the lock is released).
  typealias Reader = @Sendable (Evaluator) -> @Sendable () -> Void

  /// The effect of a transition of the inputs (a change, a trigger, the initial evaluator).
  enum InputAction: Equatable, Sendable {
    case none
    /// Start the runner task (the phase is already `.running`).
    case startRunner
    /// Tell the running pass to stop: a newer revision supersedes it.
    case signalSupersession
  }

  /// What the runner does next.
  enum RunnerAction: Sendable {
    /// Run this pass.
    case run(Work)
    /// Stop: the engine is idle (resume these waiters, whose revision is complete) or shut down.
    case becomeIdle(resume: [Waiter], with: EvaluationReport?)
  }

  /// What publishing a finished pass does.
  struct Publication: Sendable {
    /// The pass's report, for the report streams (also for superseded passes).
    var report: EvaluationReport
    /// Whether its values are published (value streams, waiters): false for a superseded pass.
    var publishesValues: Bool
    /// Waiters whose revision this pass completed, to resume with `report`.
    var resumed: [Waiter]
    /// Readers that waited for the pass, with their delivery effects.
    var readers: [@Sendable () -> Void]
  }

  // Set by the transitions only (here, `+Live`, `+Synchronous`).
  var phase: Phase = .idle
  var parked: Evaluator?
  private var pendingChanges: [FlowStoreChange] = []
  private var pendingTriggers: [String] = []
  /// The newest store revision received.
  var latestRevision: Int
  /// The revision of the last pass that completed and published its values.
  private(set) var completedRevision = -1
  private(set) var lastReport: EvaluationReport?
  /// A change arrived while the runner held the evaluator.
  private var changedDuringPass = false
  var waiters: [(revision: Int, waiter: Waiter)] = []
  var readers: [Reader] = []
  /// `SupersessionPolicy.replaceRunningPass`: a change during a pass supersedes it.
  let replacesRunningPass: Bool
  /// `EngineOptions.publishInterval`: once the last publication is this old, a change no
  /// longer supersedes the running pass, which completes and publishes; `nil`: no bound.
  let publishInterval: Duration?
  /// The time on the executor's stopwatch (set by the executor before each transition, only
  /// when `publishInterval` is set): the transitions stay pure, tests set it by hand.
  var time: Duration = .zero
  /// `time` when the last pass published its values.
  private(set) var lastPublication: Duration = .zero
  /// The running pass is overdue (`publishInterval`): changes queue behind it.
  private var keepsRunningPass = false
  /// A store change of at most this many items may run synchronously (0: never).
  let synchronousPassLimit: Int
  /// The report of a synchronous pass that handed its rest to the runner, until the runner's
  /// next pass takes it.
  var handedOver: EvaluationReport?

  // Live sources (`EngineStateMachine+Live.swift`).
  /// The emission buffer: `emissions[emissionHead...]`, at most `emissionCapacity` (plus one
  /// emission put back by a stopped pass, plus one end marker per source).
  var emissions: [LiveEmission] = []
  var emissionHead = 0
  let emissionCapacity: Int
  /// Sources that found the buffer full, with their emission, waiting for room.
  var blocked: [(emission: LiveEmission, resume: @Sendable (Bool) -> Void)] = []
  /// The tokens of the sources started and not yet ended or stopped.
  var sources: Set<UInt64> = []
  /// Value emissions processed by passes that completed.
  var processedEmissions = 0
  /// Stop taking emissions once this many were processed (`--ticks`, a signal).
  var emissionLimit: Int?
  var runningEmission: LiveEmission?
  var pendingObservations: [(id: String, delta: Int32)] = []
  /// Waiting until every source finished (or the limit is reached) and the engine is idle.
  var quiescenceWaiters: [@Sendable () -> Void] = []
  var settledQuiescence: [@Sendable () -> Void] = []

  init(
    revision: Int, replacesRunningPass: Bool, emissionCapacity: Int = 64, synchronousPassLimit: Int = 0,
    publishInterval: Duration? = nil
  ) {
    latestRevision = revision
    self.replacesRunningPass = replacesRunningPass
    self.publishInterval = publishInterval
    self.synchronousPassLimit = max(0, synchronousPassLimit)
    self.emissionCapacity = max(1, emissionCapacity)
  }

  /// Whether the runner has anything to do: inputs to apply, nodes to recompute, or a
  /// revision received and not yet published.
  ///
  /// The last one matters when a pass stops (a synchronous pass at its budget) or is declined
  /// and leaves no node dirty — a lazy pass stopped at an eagerly needed `if` whose inputs did
  /// not change has nothing left to run. No pass would publish that revision, and every
  /// `evaluate()` waiting for it would wait forever; the runner runs one more pass instead,
  /// which finds nothing to run and publishes the revision.
  var hasWork: Bool {
    !pendingChanges.isEmpty || !pendingTriggers.isEmpty || !pendingObservations.isEmpty || canTakeEmission
      || parked?.hasPendingWork == true || completedRevision < latestRevision
  }

  // MARK: Inputs

  /// The first evaluator, for revision `revision`: parked, and a runner for its first pass.
  mutating func started(with evaluator: Evaluator, revision: Int) -> InputAction {
    guard phase != .shutDown else { return .none }
    parked = evaluator
    latestRevision = max(latestRevision, revision)
    return startRunnerIfNeeded()
  }

  /// A store change arrived.
  mutating func received(_ change: FlowStoreChange) -> InputAction {
    guard phase != .shutDown else { return .none }
    pendingChanges.append(change)
    latestRevision = max(latestRevision, change.revision)
    return inputArrived()
  }

  /// Node `id` was invalidated (a live node's emission, an external trigger).
  mutating func triggered(_ id: String) -> InputAction {
    guard phase != .shutDown else { return .none }
    pendingTriggers.append(id)
    return inputArrived()
  }

  mutating func inputArrived() -> InputAction {
    if phase == .running {
      guard parked == nil else { return .none }
      changedDuringPass = true
      if let publishInterval, time - lastPublication >= publishInterval { keepsRunningPass = true }
      return replacesRunningPass && !keepsRunningPass ? .signalSupersession : .none
    }
    return startRunnerIfNeeded()
  }

  mutating func startRunnerIfNeeded() -> InputAction {
    guard phase == .idle, parked != nil, hasWork else { return .none }
    phase = .running
    return .startRunner
  }

  // MARK: The runner

  /// The runner asks for work: a pass to run, or the end of its loop.
  ///
  /// Becoming idle settles every waiter whose revision is complete: a waiter that registered
  /// after the last publication but before this step is resumed here (the lost wake-up).
  ///
  /// - Parameter evaluator: receives the evaluator for the pass, moved out of the machine so
  ///   that the pass holds the only reference (a second one would make every per-node array
  ///   copy on its first write: O(n) per pass). It never travels inside the action.
  mutating func takeWork(handingOver evaluator: inout Evaluator?) -> RunnerAction {
    switch phase {
    case .shutDown:
      return .becomeIdle(resume: [], with: nil)
    case .idle, .runningSynchronously:
      preconditionFailure("Internal inconsistency: the runner took work while no runner was started")
    case .running:
      guard parked != nil, hasWork else {
        phase = .idle
        if isLiveQuiescent { settledQuiescence += quiescenceWaiters; quiescenceWaiters.removeAll() }
        return .becomeIdle(resume: takeWaiters(upTo: completedRevision), with: lastReport)
      }
      evaluator = parked.take()
      changedDuringPass = false
      keepsRunningPass = false
      var work = Work(changes: pendingChanges, triggers: pendingTriggers, revision: latestRevision)
      pendingChanges.removeAll()
      pendingTriggers.removeAll()
      work.observations = pendingObservations
      pendingObservations.removeAll()
      work.emission = takeEmission()
      runningEmission = work.emission
      work.resumeProducers = admitBlocked()
      work.continuing = handedOver
      handedOver = nil
      return .run(work)
    }
  }

  /// `takeWork(handingOver:)` for callers that drop the evaluator (tests of the transitions).
  mutating func takeWork() -> RunnerAction {
    var dropped: Evaluator?
    return takeWork(handingOver: &dropped)
  }

  /// The runner finished a pass (completed or stopped) and returns the evaluator.
  ///
  /// A pass that was stopped, or that completed after a newer change arrived while the policy
  /// replaces running passes, publishes no values — unless it was kept because the last
  /// publication was `publishInterval` old. Values are published in revision order either
  /// way. The report of a pass that publishes nothing still goes to the report streams.
  mutating func passFinished(_ report: EvaluationReport, evaluator: Evaluator) -> Publication {
    var returning: Evaluator? = evaluator
    return passFinished(report, returning: &returning)
  }

  /// `passFinished(_:evaluator:)` moving the evaluator in (`evaluator` becomes `nil`): no copy,
  /// so the parked evaluator stays the only reference to its storage.
  mutating func passFinished(_ report: EvaluationReport, returning evaluator: inout Evaluator?) -> Publication {
    precondition(parked == nil, "Internal inconsistency: a pass finished while the evaluator was parked")
    precondition(evaluator != nil, "Internal inconsistency: a pass finished without its evaluator")
    parked = evaluator.take()
    emissionPassFinished(stopped: report.wasCancelled)
    var report = report
    if !report.wasCancelled && changedDuringPass && replacesRunningPass && !keepsRunningPass {
      report.wasCancelled = true
    }
    var resumed: [Waiter] = []
    if !report.wasCancelled {
      lastPublication = time
      completedRevision = max(completedRevision, report.revision)
      lastReport = report
      resumed = takeWaiters(upTo: report.revision)
    }
    return Publication(report: report, publishesValues: !report.wasCancelled, resumed: resumed, readers: serveReaders())
  }

  /// Shuts the engine down: no runner starts again; every waiter is resumed with `nil`.
  ///
  /// - Returns: the waiters to resume, and whether a runner is active (to cancel it).
  mutating func shutDown() -> (waiters: [Waiter], runnerWasActive: Bool) {
    let wasActive = phase == .running
    phase = .shutDown
    handedOver = nil
    pendingChanges.removeAll()
    pendingTriggers.removeAll()
    pendingObservations.removeAll()
    settledQuiescence += quiescenceWaiters
    quiescenceWaiters.removeAll()
    let all = waiters.map(\.waiter)
    waiters.removeAll()
    return (all, wasActive)
  }

  #if FLOW_INTERNAL_CHECKS
  /// Checks the invariants of the header comment.
  func _checkInvariants() {
    switch phase {
    case .idle:
      // Before `started(with:revision:)` nothing is parked and changes may already queue.
      precondition(parked == nil || !hasWork, "Internal inconsistency: idle with work (a lost wake-up)")
      precondition(readers.isEmpty, "Internal inconsistency: readers wait while the evaluator is parked")
      precondition(
        waiters.allSatisfy { $0.revision > completedRevision },
        "Internal inconsistency: an idle engine keeps a settled waiter (a lost wake-up)")
    case .running:
      precondition(
        parked == nil || readers.isEmpty, "Internal inconsistency: readers wait while the evaluator is parked")
    case .runningSynchronously:
      precondition(parked == nil, "Internal inconsistency: a synchronous pass while the evaluator is parked")
      precondition(handedOver == nil, "Internal inconsistency: a synchronous pass while a handed-over one waits")
    case .shutDown:
      precondition(waiters.isEmpty, "Internal inconsistency: waiters after shutdown")
    }
    precondition(handedOver == nil || phase != .idle, "Internal inconsistency: a handed-over pass with no runner")
    precondition(
      completedRevision <= latestRevision,
      "Internal inconsistency: completed \(completedRevision) > latest \(latestRevision)")
    precondition(
      queuedEmissionCount <= emissionCapacity + 1 + sources.count + blocked.count,
      "Internal inconsistency: the emission buffer outgrew its bound")
    precondition(
      phase != .idle || !isLiveQuiescent || quiescenceWaiters.isEmpty,
      "Internal inconsistency: an idle, quiescent engine keeps a quiescence waiter")
  }
  #endif
}
