import FlowGraph
import Synchronization

/// The executor behind `FlowEngine`: feeds its inputs to `EngineStateMachine` under one lock
/// and performs the actions the transitions return, after the lock is released.
///
/// The only shared values outside the lock are `supersede`, an atomic flag the running pass
/// polls, and the immutable configuration. Starting the runner is the one effect performed
/// under the lock (creating a `Task` only enqueues it), so the handle stored for shutdown is
/// always the runner that exists.
final class EngineCore: Sendable {
  let state: Locked<EngineState>
  let supersede = Atomic<Bool>(false)
  let registry: NodeKindRegistry
  let options: EngineOptions
  let policy: SupersessionPolicy
  /// The time live sources tell (injectable: tests drive a manual clock).
  let clock: any Clock<Duration>

  init(registry: NodeKindRegistry, options: EngineOptions, policy: SupersessionPolicy, revision: Int,
       clock: any Clock<Duration> = ContinuousClock()) {
    self.registry = registry
    self.options = options
    self.policy = policy
    self.clock = clock
    state = Locked(EngineState(machine: EngineState.Machine(revision: revision,
                                                            replacesRunningPass: policy == .replaceRunningPass,
                                                            emissionCapacity: options.emissionBufferCapacity)))
    if let limit = options.emissionLimit { state.withLock { $0.machine.limitEmissions(to: limit) } }
  }

  /// Builds the evaluator for the store's resolved snapshot and schedules the first (full) pass.
  func start(with graph: ResolvedGraph, payloads: [(any Sendable)?], revision: Int, observing: [String] = [])
    throws(GraphValidationError)
  {
    var evaluator = try makeEvaluator(graph, payloads: payloads)
    for id in observing { evaluator.observe(id) }
    transition { $0.started(with: evaluator, revision: revision) }
  }

  /// An evaluator for a graph the store resolved: neither validated again nor configured again
  /// where the store kept this registry's configuration of a node (its payload).
  ///
  /// - Throws: the problems of nodes this registry cannot configure (a store made with
  ///   another catalog).
  func makeEvaluator(_ graph: ResolvedGraph, payloads: [(any Sendable)?]) throws(GraphValidationError) -> GraphEvaluator {
    let nodes = graph.document.nodes
    var configured: [ConfiguredNode] = []
    configured.reserveCapacity(nodes.count)
    for index in nodes.indices {
      if index < payloads.count, let node = registry.configured(fromPayload: payloads[index]) {
        configured.append(node)
      } else if case .success(let node) = registry.configure(nodes[index].data) {
        configured.append(node)
      } else {
        // Another catalog's graph: let validation name every problem.
        return try GraphEvaluator(validating: graph.document, registry: registry, options: options)
      }
    }
    return GraphEvaluator(graph, configured: configured, registry: registry, options: options)
  }

  // MARK: Inputs

  /// A store change: queued for the runner; supersedes a running pass if the policy says so.
  func receive(_ change: FlowStoreChange) { transition { $0.received(change) } }

  /// Node `id` is to be recomputed without a store change.
  func trigger(_ id: String) { transition { $0.triggered(id) } }

  /// Runs an input transition and performs its action.
  func transition(_ body: (inout EngineState.Machine) -> EngineState.Machine.InputAction) {
    let action = state.withLock { state in
      let action = body(&state.machine)
      if action == .startRunner { state.runner = Task { [self] in await runLoop() } }
      #if FLOW_INTERNAL_CHECKS
      state.machine._checkInvariants()
      #endif
      return action
    }
    if action == .signalSupersession { signalSupersession() }
  }

  /// Tells the running pass to stop: the flag it polls between nodes, and the signal it
  /// watches while waiting for child tasks.
  func signalSupersession() {
    supersede.store(true, ordering: .relaxed)
    let signal = state.withLock { $0.stopSignal }
    signal?.yield()
  }

  // MARK: The pass loop

  /// Takes work, runs a pass, publishes; until the state machine says the engine is idle.
  func runLoop() async {
    while true {
      var taken: GraphEvaluator?
      let action = state.withLock { state in
        let action = state.machine.takeWork(handingOver: &taken)
        if case .becomeIdle = action { state.runner = nil }
        return action
      }
      switch action {
      case .becomeIdle(let waiters, let report):
        // Quiescence is settled only when the runner becomes idle.
        for resume in state.withLock({ $0.machine.takeSettledQuiescence() }) { resume() }
        for waiter in waiters { waiter.resume(returning: report) }
        return
      case .run(let work):
        guard var evaluator = taken else { preconditionFailure("Internal inconsistency: work without an evaluator") }
        taken = nil
        supersede.store(false, ordering: .relaxed)
        let report = await runPass(work, on: &evaluator)
        publish(report, evaluator: evaluator)
      }
    }
  }

  /// Applies the work's changes and triggers to its evaluator and runs one pass.
  ///
  /// `evaluator` is the only reference to the evaluator's storage during the pass (the state
  /// machine handed it over, `runLoop` dropped its copy): a second reference alive during the
  /// pass would make every per-node array copy on its first write (O(n) per pass).
  private func runPass(_ work: EngineState.Machine.Work, on evaluator: inout GraphEvaluator) async -> EvaluationReport {
    let storeChanges = work.changes
    let triggers = work.triggers
    let observations = work.observations
    let emission = work.emission
    let producers = work.resumeProducers
    let revision = work.revision
    for resume in producers { resume(true) }
    var stops: [UInt64] = []
    for change in storeChanges {
      if let document = change.reloadedDocument {
        let fresh = change.resolutions.reloadedGraph.map { try? makeEvaluator($0, payloads: change.resolutions.reloadedPayloads) }
          ?? (try? GraphEvaluator(validating: document, registry: registry, options: options))
        if var fresh {
          stops += evaluator.runningSourceTokens
          for (id, count) in evaluator.observers { for _ in 0..<count { fresh.observe(id) } }
          evaluator = fresh
        }
      } else {
        evaluator.apply(change)
      }
    }
    for id in triggers {
      if let node = evaluator.graph.indexByID[id] { evaluator.markDirty(node) }
    }
    for observation in observations {
      if observation.delta > 0 { evaluator.observe(observation.id) } else { evaluator.unobserve(observation.id) }
    }
    evaluator.live.emission = emission
    var changes = evaluator.takeLiveChanges()
    changes.stops += stops
    if !changes.isEmpty { performLiveChanges(changes) }
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
    return report
  }

  /// Parks the evaluator; serves readers, waiters and the async sequences.
  func publish(_ report: EvaluationReport, evaluator: GraphEvaluator) {
    var values: [(AsyncStream<[String: Value]>.Continuation, [String: Value])] = []
    let (publication, reportStreams) = state.withLock { state in
      let publication = state.machine.passFinished(report, evaluator: evaluator)
      guard !state.valueSubscribers.isEmpty || !state.reportSubscribers.isEmpty else {
        return (publication, [AsyncStream<EvaluationReport>.Continuation]())
      }
      if publication.publishesValues {
        for subscriber in state.valueSubscribers.values {
          guard let node = evaluator.graph.indexByID[subscriber.nodeID],
                evaluator.graph.record(node).changedStamp == evaluator.pass, let outputs = evaluator.outputs(of: subscriber.nodeID)
          else { continue }
          values.append((subscriber.continuation, outputs))
        }
      }
      #if FLOW_INTERNAL_CHECKS
      state.machine._checkInvariants()
      #endif
      return (publication, Array(state.reportSubscribers.values))
    }
    // Streams first: a waiter resumed below may shut the engine down and finish them.
    for stream in reportStreams { stream.yield(publication.report) }
    for (stream, outputs) in values { stream.yield(outputs) }
    for deliver in publication.readers { deliver() }
    for waiter in publication.resumed { waiter.resume(returning: publication.report) }
  }

  // MARK: Reading and waiting

  /// Runs `body` on the evaluator as of the last completed pass, waiting if a pass runs.
  func read<Result: Sendable>(_ body: @escaping @Sendable (GraphEvaluator) -> Result) async -> Result {
    await withCheckedContinuation { continuation in
      let deliver = state.withLock { state in
        state.machine.readerArrived { evaluator in
          let result = body(evaluator)
          return { continuation.resume(returning: result) }
        }
      }
      deliver?()
    }
  }

  /// Waits until a pass has completed revision `revision`; `nil` if the engine shut down first.
  func waitForRevision(_ revision: Int) async -> EvaluationReport? {
    await withCheckedContinuation { continuation in
      let outcome = state.withLock { state in
        let outcome = state.machine.waiterArrived(continuation, revision: revision)
        #if FLOW_INTERNAL_CHECKS
        state.machine._checkInvariants()
        #endif
        return outcome
      }
      if case .resume(let report) = outcome { continuation.resume(returning: report) }
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
        if let evaluator = state.machine.parked, state.machine.completedRevision >= 0,
           let outputs = evaluator.outputs(of: nodeID) {
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

  /// Cancels the runner, finishes streams, resumes every waiter with `nil`.
  func shutDown() {
    stopAllSources()
    let (waiters, runner, reports, values) = state.withLock { state in
      let (waiters, _) = state.machine.shutDown()
      defer {
        state.reportSubscribers.removeAll()
        state.valueSubscribers.removeAll()
      }
      return (waiters, state.runner, Array(state.reportSubscribers.values), state.valueSubscribers.values.map(\.continuation))
    }
    signalSupersession()
    runner?.cancel()
    for waiter in waiters { waiter.resume(returning: nil) }
    for stream in reports { stream.finish() }
    for stream in values { stream.finish() }
    for resume in state.withLock({ $0.machine.takeSettledQuiescence() }) { resume() }
  }
}
