import FlowGraph
import Synchronization

/// The embeddable engine: keeps a `FlowStore`'s graph evaluated as it changes.
///
/// The engine observes the store; every accepted mutation marks what it affects dirty and
/// schedules a pass. Passes are serialized on one runner task the engine owns: cheap nodes run
/// inline, expensive ones concurrently in child tasks (`Documentation/Evaluation.md`). A cheap change to an
/// idle engine is evaluated right away on the mutating thread instead, and published before
/// the mutation returns (`EngineOptions.runsCheapPassesSynchronously`). A change arriving
/// during a runner's pass supersedes it per `SupersessionPolicy`; a superseded pass publishes
/// nothing, so observers never see an older revision's values after a newer one's.
///
/// ```swift
/// let engine = try FlowEngine(document: document, registry: .standard)
/// let report = await engine.evaluate()          // the first, full pass
/// try engine.store.updateNode(changedNode)      // schedules an incremental pass
/// let next = await engine.evaluate()            // waits for it
/// print(next.ran, await engine.outputs(of: "total") ?? [:])
/// ```
public final class FlowEngine: Sendable {
  /// The graph the engine evaluates; mutate it to trigger passes.
  public let store: FlowStore
  let core: EngineCore
  /// The handles of the nodes observed from the start (`init(…observing:)`).
  public let initialObservations: [ObservationHandle]
  private let observation: FlowStore.Observation

  /// An engine evaluating `store`'s graph with the kinds of `registry`.
  ///
  /// - Throws: if the store's graph holds a node the registry cannot configure (a store made
  ///   with another catalog).
  ///   - clock: the time of live sources (a clock, a watched file) and of
  ///     `EngineOptions.publishInterval`; tests pass a manual clock.
  ///   - liveState: saved live state by node id (`FlowDocument.liveState`) to resume from.
  ///   - observing: nodes observed from the first pass on (before any source emits); their
  ///     handles are `initialObservations`.
  public init(
    store: FlowStore, registry: NodeKindRegistry, options: EngineOptions = EngineOptions(),
    policy: SupersessionPolicy = .replaceRunningPass, clock: any Clock<Duration> = ContinuousClock(),
    liveState: JSONObject = JSONObject(), observing: [String] = []
  ) throws(GraphValidationError) {
    self.store = store
    let core = EngineCore(
      registry: registry.applying(options), options: options, policy: policy, revision: 0, clock: clock)
    var (snapshot, observation) = store.observeResolved { [weak core] change in core?.receive(change) }
    snapshot.graph.document.liveState = liveState
    self.observation = observation
    self.core = core
    initialObservations = observing.map { id in
      ObservationHandle(nodeID: id) { [weak core] in core?.transition { $0.observationChanged(id, delta: -1) } }
    }
    do {
      try core.start(
        with: snapshot.graph, payloads: snapshot.payloads, revision: snapshot.revision, observing: observing)
    } catch {
      observation.cancel()
      throw error
    }
  }

  /// An engine over a new store holding `document`, resuming its live nodes from the
  /// document's `flowRuntime.liveState`. A document read from a file (`FlowDocument.folder`)
  /// has its file nodes' relative paths resolve against that folder
  /// (`NodeKindRegistry.locating(_:)`).
  ///
  /// - Throws: every validation problem of the document.
  public convenience init(
    document: FlowDocument, registry: NodeKindRegistry, options: EngineOptions = EngineOptions(),
    policy: SupersessionPolicy = .replaceRunningPass, clock: any Clock<Duration> = ContinuousClock(),
    observing: [String] = []
  ) throws(GraphValidationError) {
    let registry = registry.applying(options).locating(document)
    try self.init(
      store: FlowStore(catalog: registry, document: document), registry: registry, options: options, policy: policy,
      clock: clock, liveState: document.liveState, observing: observing)
  }

  deinit {
    observation.cancel()
    core.shutDown()
  }

  /// Waits until the graph is evaluated up to the store's current revision.
  ///
  /// Runs on the caller's actor: when that revision is already published — after a cheap
  /// change evaluated synchronously (`EngineOptions.runsCheapPassesSynchronously`) — it returns
  /// without suspending or leaving the caller's actor.
  ///
  /// - Returns: the report of the pass that completed that revision, or `nil` if the engine
  ///   was shut down first (or while waiting). When nothing changed since the last pass (no
  ///   mutation, or one the store found identical, which makes no revision) no pass runs and
  ///   the returned report is that last pass's again: its `revision` is the one it completed,
  ///   so compare it with the previous report's to tell whether a pass ran.
  @discardableResult
  nonisolated(nonsending) public func evaluate() async -> EvaluationReport? {
    let revision = store.revision
    if case .resume(let report)? = core.state.withLock({ $0.machine.settledWaiter(revision: revision) }) {
      return report
    }
    return await core.waitForRevision(revision)
  }

  /// Marks node `id` to be recomputed and schedules a pass: the seam for external triggers (a
  /// live node's own emission, a file that changed).
  public func invalidate(_ id: String) { core.trigger(id) }

  /// The state of node `id` as of the last completed pass (waits if a pass is running): its
  /// outputs, its failure, pending or not computed (`NodeState`); `nil` for an unknown id.
  public func state(of id: String) async -> NodeState? { await core.read { $0.state(of: id) } }

  /// The outputs of node `id` as of the last completed pass (waits if a pass is running):
  /// `state(of:)`'s outputs, so `nil` for a node that failed, is pending or was not computed.
  public func outputs(of id: String) async -> [String: Value]? { await core.read { $0.outputs(of: id) } }

  /// Why node `id` failed in the last completed pass, if it did (`state(of:)` has it too, with
  /// the node where the failure started).
  public func failure(of id: String) async -> String? { await core.read { $0.failure(of: id) } }

  /// Every failed node with its message, as of the last completed pass.
  public func failures() async -> [String: String] { await core.read { $0.failures } }

  /// How many times node `id` has been evaluated since the engine started (or reloaded).
  public func evaluationCount(of id: String) async -> Int? { await core.read { $0.evaluationCount(of: id) } }

  /// The report of the last completed pass.
  public var lastReport: EvaluationReport? { core.state.withLock { $0.machine.lastReport } }

  /// How many reports a `reports` sequence keeps for a reader that has not taken them yet.
  public static let reportBufferLimit = 1_024

  /// Reports of the passes as they finish, starting with the latest one whenever iteration
  /// begins (superseded passes too, with `wasCancelled`); see `EngineReports`.
  ///
  /// Each iterator buffers at most `reportBufferLimit` (1,024) reports its reader has not taken
  /// yet: when a pass finishes with the buffer full, the oldest buffered report is dropped, so
  /// a slow reader sees the newest 1,024 reports and memory stays bounded.
  public var reports: EngineReports { EngineReports(core: core) }

  /// The state of node `id`, each tagged with its revision: the current state first whenever
  /// iteration begins, then each time a completed pass changes it (new outputs, a failure or
  /// a recovery, pending, not computed); see `NodeValues`.
  ///
  /// A reader that starts after a cheap change was evaluated synchronously (before
  /// `updateNode` returned) still sees its result first. Latest only: a reader that falls
  /// behind gets the newest state when it next asks, never a backlog of stale ones.
  ///
  /// ```swift
  /// for await update in engine.values(of: "total") {
  ///   switch update.state {
  ///   case .value(let outputs): print("r\(update.revision): total =", outputs["result"] ?? "?")
  ///   case .failed(let message, _): print("total failed:", message)
  ///   case .pending, .notComputed: print("total: no value")
  ///   }
  /// }
  /// ```
  public func values(of id: String) -> NodeValues { NodeValues(core: core, nodeID: id) }

  /// Stops the engine: cancels a running pass and every live source, ends the async
  /// sequences, resumes waiters.
  public func shutDown() {
    observation.cancel()
    core.shutDown()
  }
}
