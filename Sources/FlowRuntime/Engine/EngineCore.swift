import FlowGraph
import Synchronization

/// The executor behind `FlowEngine`: feeds its inputs to `EngineStateMachine` under one lock
/// and performs the actions the transitions return, after the lock is released.
///
/// The only shared values outside the lock are `supersede`, an atomic flag the running pass
/// polls, and the immutable configuration. Two effects are performed under the lock, both only
/// enqueueing: starting the runner (creating a `Task`), so the handle stored for shutdown is
/// always the runner that exists; and yielding to the report and value streams, so elements
/// arrive in publication order even when a synchronous pass and the runner publish back to
/// back on different threads.
final class EngineCore: Sendable {
  let state: Locked<EngineState>
  let supersede = Atomic<Bool>(false)
  let registry: NodeKindRegistry
  let options: EngineOptions
  let policy: SupersessionPolicy
  /// The time live sources and `publishInterval` tell (injectable: tests drive a manual clock).
  let clock: any Clock<Duration>
  /// The time since the engine started, on `clock`, for the state machine's `time`
  /// (`EngineOptions.publishInterval` only: without it no transition reads the clock).
  private let elapsed: (@Sendable () -> Duration)?

  init(
    registry: NodeKindRegistry, options: EngineOptions, policy: SupersessionPolicy, revision: Int,
    clock: any Clock<Duration> = ContinuousClock()
  ) {
    self.registry = registry
    self.options = options
    self.policy = policy
    self.clock = clock
    elapsed = options.publishInterval == nil ? nil : Self.stopwatch(clock)
    state = Locked(
      EngineState(
        machine: EngineState.Machine(
          revision: revision,
          replacesRunningPass: policy == .replaceRunningPass,
          emissionCapacity: options.emissionBufferCapacity,
          synchronousPassLimit: options.runsCheapPassesSynchronously
            ? options.synchronousPassLimit : 0,
          publishInterval: options.publishInterval)))
    if let limit = options.emissionLimit { state.withLock { _ = $0.machine.limitEmissions(to: limit) } }
  }

  /// Builds the evaluator for the store's resolved snapshot and schedules the first (full) pass.
  func start(with graph: ResolvedGraph, payloads: [(any Sendable)?], revision: Int, observing: [String] = [])
    throws(GraphValidationError)
  {
    var evaluator: GraphEvaluator? = try makeCachedEvaluator(graph, payloads: payloads, observing: observing)
    if evaluator == nil { evaluator = try makeEvaluator(graph, payloads: payloads) }
    evaluator!.observe(observing)
    // Moved into the machine, not copied: a copy left here could still be alive when the
    // runner's first pass makes the storage unique, and that pass would copy it (O(n)).
    transition { $0.started(with: EvaluatorCell(evaluator.take()!), revision: revision) }
  }

  /// An evaluator for a graph the store resolved: neither validated again nor configured again
  /// where the store kept this registry's configuration of a node (its payload).
  ///
  /// - Throws: the problems of nodes this registry cannot configure (a store made with
  ///   another catalog).
  func makeEvaluator(_ graph: ResolvedGraph, payloads: [(any Sendable)?]) throws(GraphValidationError) -> GraphEvaluator
  {
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
    return GraphEvaluator(
      graph, configured: registry.conforming(configured, to: graph), registry: registry, options: options)
  }

  // MARK: Inputs

  /// Node `id` is to be recomputed without a store change.
  func trigger(_ id: String) { transition { $0.triggered(id) } }

  /// Runs an input transition and performs its action.
  func transition(_ body: (inout EngineState.Machine) -> EngineState.Machine.InputAction) {
    let action = state.withLock { state in
      tell(&state.machine)
      let action = body(&state.machine)
      if action == .startRunner { state.runner = Task { [self] in await runLoop() } }
      #if FLOW_INTERNAL_CHECKS
      state.machine._checkInvariants()
      #endif
      return action
    }
    if action == .signalSupersession { signalSupersession() }
  }

  /// Gives the state machine the time, under the lock, when `publishInterval` needs it.
  func tell(_ machine: inout EngineState.Machine) {
    if let elapsed { machine.time = elapsed() }
  }

  /// The time since now on `clock`, read each time the closure is called.
  private static func stopwatch<C: Clock>(_ clock: C) -> @Sendable () -> Duration where C.Duration == Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
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
  ///
  /// A finished pass is published and the next work taken under one lock: when the pass
  /// leaves nothing to do, the engine is idle before any waiter resumes, so a change made
  /// right after `evaluate()` returns finds it idle (and may run synchronously) every time.
  func runLoop() async {
    var finished: (report: EvaluationReport, preceding: EvaluationReport?)?
    var taken: EvaluatorCell?
    while true {
      let (publication, action) = state.withLock { state in
        var publication: EngineState.Machine.Publication?
        if let finished {
          publication = publish(finished.report, preceding: finished.preceding, returning: &taken, in: &state)
        }
        let action = state.machine.takeWork(handingOver: &taken)
        if case .becomeIdle = action { state.runner = nil }
        return (publication, action)
      }
      finished = nil
      if let publication {
        for deliver in publication.readers { deliver() }
        for waiter in publication.resumed { waiter.resume(returning: publication.report) }
      }
      switch action {
      case .becomeIdle(let waiters, let report):
        // Quiescence is settled only when the runner becomes idle.
        for resume in state.withLock({ $0.machine.takeSettledQuiescence() }) { resume() }
        for waiter in waiters { waiter.resume(returning: report) }
        return
      case .run(let work):
        precondition(taken != nil, "Internal inconsistency: work without an evaluator")
        supersede.store(false, ordering: .relaxed)
        // `taken!` in place: the pass mutates the one copy the state machine moved out.
        var report = await runPass(work, on: &taken!.evaluator)
        var preceding: EvaluationReport?
        if let earlier = work.continuing {
          // The rest of a synchronous pass that stopped at its budget: one report for both
          // parts, unless other inputs came along (then the earlier part was superseded).
          let continuesOnly =
            work.changes.isEmpty && work.triggers.isEmpty && work.observations.isEmpty && work.emission == nil
          if continuesOnly { report = earlier.continued(by: report) } else { preceding = earlier }
        }
        finished = (report, preceding)
      }
    }
  }

  /// Applies the work's changes and triggers to its evaluator and runs one pass.
  ///
  /// `evaluator` is the only reference to the evaluator's storage during the pass (the state
  /// machine handed it over, `runLoop` dropped its copy): a second reference alive during the
  /// pass would make every per-node array copy on its first write (O(n) per pass). Every step
  /// moves it (`Optional.take()`, `&taken!` in place) rather than copying it, which would
  /// also cost a retain and a release per stored array.
  private func runPass(_ work: EngineState.Machine.Work, on evaluator: inout GraphEvaluator) async -> EvaluationReport {
    prepare(work, on: &evaluator)
    let revision = work.revision
    let stop = { [self] in supersede.load(ordering: .relaxed) || Task.isCancelled }
    var report: EvaluationReport
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
    if evaluator.runCache != nil { report = evaluator.finishCachedPass(report) }
    // Sources the pass brought up through a lazy input start now (they are needed from now on).
    let started = evaluator.takeLiveChanges()
    if !started.isEmpty { performLiveChanges(started) }
    #if FLOW_INTERNAL_CHECKS
    evaluator._checkInvariants()
    #endif
    return report
  }

  /// Applies the work's store changes, triggers, observers and emission to the evaluator, and
  /// starts or stops the sources that asks for: everything before a pass evaluates.
  func prepare(_ work: EngineState.Machine.Work, on evaluator: inout GraphEvaluator) {
    let storeChanges = work.changes
    let triggers = work.triggers
    let observations = work.observations
    let emission = work.emission
    let producers = work.resumeProducers
    for resume in producers { resume(true) }
    var stops: [UInt64] = []
    // With a cache, changes that reach a served node rebuild the graph instead.
    let rebuilt = evaluator.runCache != nil && applyCached(storeChanges, to: &evaluator)
    for change in storeChanges where !rebuilt {
      if let document = change.reloadedDocument {
        let fresh =
          change.resolutions.reloaded.map { try? makeEvaluator($0.graph, payloads: $0.payloads) }
          ?? (try? GraphEvaluator(validating: document, registry: registry, options: options))
        if var fresh {
          stops += evaluator.runningSourceTokens
          for (id, count) in evaluator.demand.observers { for _ in 0..<count { fresh.observe(id) } }
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
  }

  /// Parks the evaluator and streams the publication, under the lock; the caller serves its
  /// readers and waiters once the lock is released.
  ///
  /// - Parameters:
  ///   - preceding: a handed-over synchronous pass that this one superseded instead of
  ///     continuing: streamed first, as a cancelled report.
  ///   - evaluator: the pass's evaluator, moved into the state machine under the lock (set to
  ///     `nil`), so no second reference outlives the lock.
  func publish(
    _ report: EvaluationReport, preceding: EvaluationReport?, returning evaluator: inout EvaluatorCell?,
    in state: inout EngineState
  ) -> EngineState.Machine.Publication {
    tell(&state.machine)
    let publication = state.machine.passFinished(report, returning: &evaluator)
    if let preceding { streamReport(preceding, to: state.reportSubscribers) }
    stream(publication, in: &state)
    #if FLOW_INTERNAL_CHECKS
    state.machine._checkInvariants()
    #endif
    return publication
  }

  /// Yields a publication to the report and value streams, under the lock: publications are
  /// made in revision order under the lock, so yielding there keeps that order even when a
  /// synchronous pass and the runner publish one after the other on different threads.
  /// (Yielding only enqueues the consumer; it never calls back into the engine.)
  ///
  /// States go to subscribers of nodes that changed since the last publication, so a node
  /// changed by a stopped or superseded pass and not by the completing one is not missed, and
  /// to subscribers whose node changed state without a new output (it became stale, or was
  /// computed again with the outputs it had), or that have received nothing yet.
  func stream(_ publication: EngineState.Machine.Publication, in state: inout EngineState) {
    streamReport(publication.report, to: state.reportSubscribers)
    guard publication.publishesValues, let pass = state.machine.parked?.evaluator.pass else { return }
    defer { state.publishedPass = pass }
    guard !state.valueSubscribers.isEmpty, let evaluator = state.machine.parked?.evaluator else { return }
    // Passes since the last publication (1 after a reload restarted the stamps).
    let since = pass > state.publishedPass ? pass - state.publishedPass : 1
    for (id, subscriber) in state.valueSubscribers {
      guard let node = evaluator.graph.indexByID[subscriber.nodeID], !evaluator.graph.flags(of: node).contains(.removed)
      else { continue }
      let kind = evaluator.stateKind(of: node)
      guard kind != subscriber.lastKind || pass &- evaluator.graph.record(node).changedStamp < since else { continue }
      subscriber.continuation.yield(
        NodeUpdate(revision: publication.report.revision, state: evaluator.state(ofNode: node)))
      state.valueSubscribers[id]?.lastKind = kind
    }
  }

  /// Yields `report` to the report subscriptions. Takes the subscribers, not the whole
  /// `EngineState`: passing that by value from under the lock copies the parked evaluator.
  func streamReport(_ report: EvaluationReport, to subscribers: [Int: AsyncStream<EvaluationReport>.Continuation]) {
    for stream in subscribers.values { stream.yield(report) }
  }

  // MARK: Reading and waiting

  /// Runs `body` on the evaluator as of the last completed pass, waiting if a pass runs.
  func read<Result: Sendable>(_ body: @escaping @Sendable (GraphEvaluator) -> Result) async -> Result {
    await withCheckedContinuation { continuation in
      let deliver = state.withLock { state in
        state.machine.readerArrived { cell in
          let result = body(cell.evaluator)
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

  /// A report subscription (`EngineReports`): the last completed pass's report first, then
  /// every report streamed after it. Registered and primed under the lock, so no publication
  /// falls between the two.
  func subscribeToReports() -> AsyncStream<EvaluationReport> {
    subscribe(
      buffering: .bufferingNewest(FlowEngine.reportBufferLimit),
      register: { state, id, continuation in
        if let last = state.machine.lastReport { continuation.yield(last) }
        if let id { state.reportSubscribers[id] = continuation }
      },
      unregister: { state, id in state.reportSubscribers[id] = nil })
  }

  /// A state subscription of node `nodeID` (`NodeValues`): its current state first when the
  /// parked evaluator holds exactly what was last published, else the next publication's.
  func subscribeToValues(of nodeID: String) -> AsyncStream<NodeUpdate> {
    subscribe(
      buffering: .bufferingNewest(1),
      register: { state, id, continuation in
        var subscriber = EngineState.ValueSubscriber(nodeID: nodeID, continuation: continuation)
        // The current state at once when a pass has completed and the evaluator is parked with
        // nothing evaluated since (a superseded pass leaves values no publication carried);
        // otherwise the next publication yields it (`lastKind` is `nil` until then).
        if let evaluator = state.machine.parked?.evaluator, state.machine.completedRevision >= 0,
          evaluator.pass == state.publishedPass,
          let node = evaluator.graph.indexByID[nodeID], !evaluator.graph.flags(of: node).contains(.removed)
        {
          continuation.yield(
            NodeUpdate(revision: state.machine.completedRevision, state: evaluator.state(ofNode: node)))
          subscriber.lastKind = evaluator.stateKind(of: node)
        }
        if let id { state.valueSubscribers[id] = subscriber }
      },
      unregister: { state, id in state.valueSubscribers[id] = nil })
  }

  /// A stream registered in the state under a fresh id that unregisters itself when its
  /// consumer stops; it buffers what its reader has not taken yet as `buffering` says.
  /// `register` primes it (and stores it under the id); after shutdown it is called with no
  /// id, to prime the stream, which then finishes.
  private func subscribe<Element: Sendable>(
    buffering: AsyncStream<Element>.Continuation.BufferingPolicy,
    register: (inout EngineState, Int?, AsyncStream<Element>.Continuation) -> Void,
    unregister: @escaping @Sendable (inout EngineState, Int) -> Void
  ) -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: buffering)
    let id = state.withLock { state -> Int? in
      guard !state.isShutDown else {
        register(&state, nil, continuation)
        return nil
      }
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
      return (
        waiters, state.runner, Array(state.reportSubscribers.values), state.valueSubscribers.values.map(\.continuation)
      )
    }
    signalSupersession()
    runner?.cancel()
    for waiter in waiters { waiter.resume(returning: nil) }
    for stream in reports { stream.finish() }
    for stream in values { stream.finish() }
    for resume in state.withLock({ $0.machine.takeSettledQuiescence() }) { resume() }
  }
}
