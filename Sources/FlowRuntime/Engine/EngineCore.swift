import FlowGraph
import Synchronization

/// The executor behind `FlowEngine`: receives store changes, runs the pass loop, publishes.
///
/// All shared state is in `state` (a mutex); the only other shared value is `supersede`, an
/// atomic flag the running pass polls between nodes. Effects that call out (resuming
/// continuations, yielding to streams, reader callbacks) happen after the lock is released,
/// except readers, which run under the lock because they read the parked evaluator.
final class EngineCore: Sendable {
  let state: Locked<EngineState>
  let supersede = Atomic<Bool>(false)
  let registry: NodeKindRegistry
  let options: EngineOptions
  let policy: SupersessionPolicy

  init(registry: NodeKindRegistry, options: EngineOptions, policy: SupersessionPolicy) {
    self.registry = registry
    self.options = options
    self.policy = policy
    state = Locked(EngineState(evaluator: nil, revision: 0))
  }

  /// Builds the evaluator for the store's snapshot and schedules the first (full) pass.
  func start(with document: FlowDocument, revision: Int) throws(GraphValidationError) {
    let evaluator = try makeEvaluator(document)
    state.withLock { state in
      state.evaluator = evaluator
      state.latestRevision = revision
    }
    scheduleRunner()
  }

  func makeEvaluator(_ document: FlowDocument) throws(GraphValidationError) -> GraphEvaluator {
    var evaluator = try GraphEvaluator(validating: document, registry: registry, options: options)
    evaluator.indexEdges(document.edges)
    return evaluator
  }

  // MARK: Inputs

  /// A store change: queue it, supersede a running pass if the policy says so, make sure the
  /// runner runs.
  func receive(_ change: FlowStoreChange) {
    let supersedes = state.withLock { state -> Bool in
      guard !state.isShutDown else { return false }
      state.pendingChanges.append(change)
      state.latestRevision = max(state.latestRevision, change.revision)
      return state.isRunning
    }
    if supersedes && policy == .replaceRunningPass { signalSupersession() }
    scheduleRunner()
  }

  /// Tells the running pass to stop: the flag it polls between nodes, and the signal it
  /// watches while waiting for child tasks.
  func signalSupersession() {
    supersede.store(true, ordering: .relaxed)
    let signal = state.withLock { $0.stopSignal }
    signal?.yield()
  }

  func trigger(_ id: String) {
    let supersedes = state.withLock { state -> Bool in
      guard !state.isShutDown else { return false }
      state.pendingTriggers.append(id)
      return state.isRunning
    }
    if supersedes && policy == .replaceRunningPass { signalSupersession() }
    scheduleRunner()
  }

  /// Starts the runner task unless it is running or there is nothing to do.
  func scheduleRunner() {
    state.withLock { state in
      guard !state.isRunning, !state.isShutDown, state.hasWork else { return }
      state.isRunning = true
      state.runner = Task { [self] in await runLoop() }
    }
  }

  // MARK: The pass loop

  /// Takes work, runs a pass, publishes; until no work is left.
  func runLoop() async {
    while !Task.isCancelled {
      let taken = state.withLock { state -> (GraphEvaluator, [FlowStoreChange], [String], Int)? in
        guard !state.isShutDown, state.hasWork, let evaluator = state.evaluator else {
          state.isRunning = false
          return nil
        }
        state.evaluator = nil
        defer {
          state.pendingChanges.removeAll()
          state.pendingTriggers.removeAll()
        }
        return (evaluator, state.pendingChanges, state.pendingTriggers, state.latestRevision)
      }
      guard let (parked, changes, triggers, revision) = taken else { return }
      var evaluator = parked
      supersede.store(false, ordering: .relaxed)
      for change in changes {
        if let document = change.reloadedDocument {
          if let fresh = try? makeEvaluator(document) { evaluator = fresh }
        } else {
          for item in change.items { evaluator.apply(item) }
        }
      }
      for id in triggers {
        if let node = evaluator.graph.indexByID[id] { evaluator.markDirty(node) }
      }
      #if FLOW_INTERNAL_CHECKS
      evaluator._checkInvariants()
      #endif
      let stop = { [self] in supersede.load(ordering: .relaxed) || Task.isCancelled }
      let report: EvaluationReport
      if evaluator.benefitsFromConcurrency {
        let (signal, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.stopSignal = continuation }
        if supersede.load(ordering: .relaxed) { continuation.yield() }
        report = await withTaskCancellationHandler {
          await evaluator.evaluateConcurrently(revision: revision, shouldStop: stop, stopSignal: signal)
        } onCancel: {
          continuation.finish()
        }
        state.withLock { $0.stopSignal = nil }
        continuation.finish()
      } else {
        report = evaluator.evaluate(revision: revision, shouldStop: stop)
      }
      #if FLOW_INTERNAL_CHECKS
      evaluator._checkInvariants()
      #endif
      publish(report, evaluator: evaluator)
    }
    state.withLock { $0.isRunning = false }
  }

  /// Parks the evaluator, serves readers and waiters, feeds the async sequences.
  func publish(_ report: EvaluationReport, evaluator: GraphEvaluator) {
    var resumed: [(CheckedContinuation<EvaluationReport?, Never>, EvaluationReport?)] = []
    var reportStreams: [AsyncStream<EvaluationReport>.Continuation] = []
    var values: [(AsyncStream<[String: Value]>.Continuation, [String: Value])] = []
    state.withLock { state in
      state.evaluator = evaluator
      reportStreams = Array(state.reportSubscribers.values)
      if !report.wasCancelled {
        state.completedRevision = report.revision
        state.lastReport = report
        state.revisionWaiters.removeAll { waiter in
          guard waiter.revision <= report.revision else { return false }
          resumed.append((waiter.continuation, report))
          return true
        }
        for subscriber in state.valueSubscribers.values {
          guard let node = evaluator.graph.indexByID[subscriber.nodeID],
                evaluator.changedStamp[Int(node)] == evaluator.pass else { continue }
          values.append((subscriber.continuation, evaluator.graph.outputs(of: node)))
        }
      }
      let readers = state.readers
      state.readers.removeAll()
      for reader in readers { reader(evaluator) }
    }
    // Streams first: a waiter resumed below may shut the engine down and finish them.
    for stream in reportStreams { stream.yield(report) }
    for (stream, outputs) in values { stream.yield(outputs) }
    for (continuation, value) in resumed { continuation.resume(returning: value) }
  }

  // MARK: Reading and waiting

  /// Runs `body` on the evaluator as of the last completed pass, waiting if a pass runs.
  func read<Result: Sendable>(_ body: @escaping @Sendable (GraphEvaluator) -> Result) async -> Result {
    await withCheckedContinuation { continuation in
      let immediate = state.withLock { state -> Result? in
        if let evaluator = state.evaluator { return body(evaluator) }
        state.readers.append { continuation.resume(returning: body($0)) }
        return nil
      }
      if let immediate { continuation.resume(returning: immediate) }
    }
  }

  /// Waits until a pass has completed revision `revision` (or the engine shut down).
  func waitForRevision(_ revision: Int) async -> EvaluationReport? {
    await withCheckedContinuation { continuation in
      let immediate = state.withLock { state -> EvaluationReport?? in
        if state.isShutDown { return .some(state.lastReport) }
        if state.completedRevision >= revision && !state.hasWork && !state.isRunning { return .some(state.lastReport) }
        state.revisionWaiters.append((max(revision, state.latestRevision), continuation))
        return .none
      }
      if let immediate { continuation.resume(returning: immediate) }
    }
  }

  func subscribeToReports() -> AsyncStream<EvaluationReport> {
    subscribe(
      register: { state, id, continuation in state.reportSubscribers[id] = continuation },
      unregister: { state, id in state.reportSubscribers[id] = nil })
  }

  func subscribeToValues(of nodeID: String) -> AsyncStream<[String: Value]> {
    subscribe(
      register: { state, id, continuation in
        state.valueSubscribers[id] = (nodeID, continuation)
        if let evaluator = state.evaluator, state.completedRevision >= 0, let outputs = evaluator.outputs(of: nodeID) {
          continuation.yield(outputs)
        }
      },
      unregister: { state, id in state.valueSubscribers[id] = nil })
  }

  /// A stream registered in the state under a fresh id (finished at once after shutdown) that
  /// unregisters itself when its consumer stops.
  private func subscribe<Element: Sendable>(
    register: (inout EngineState, Int, AsyncStream<Element>.Continuation) -> Void,
    unregister: @escaping @Sendable (inout EngineState, Int) -> Void
  ) -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
    let id = state.withLock { state -> Int? in
      guard !state.isShutDown else { return nil }
      state.nextSubscriberID += 1
      register(&state, state.nextSubscriberID, continuation)
      return state.nextSubscriberID
    }
    guard let id else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in self?.state.withLock { unregister(&$0, id) } }
    return stream
  }

  /// Cancels the runner, finishes streams, resumes every waiter.
  func shutDown() {
    let (runner, waiters, reports, values) = state.withLock { state in
      state.isShutDown = true
      defer {
        state.revisionWaiters.removeAll()
        state.reportSubscribers.removeAll()
        state.valueSubscribers.removeAll()
      }
      return (state.runner, state.revisionWaiters.map { ($0.continuation, state.lastReport) },
              Array(state.reportSubscribers.values), state.valueSubscribers.values.map(\.continuation))
    }
    signalSupersession()
    runner?.cancel()
    for (continuation, report) in waiters { continuation.resume(returning: report) }
    for stream in reports { stream.finish() }
    for stream in values { stream.finish() }
  }
}
