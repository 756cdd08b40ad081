import FlowGraph

extension FlowEngine {
  /// Observes node `id`: it and its ancestors become necessary (see `EngineOptions.demandDriven`
  /// and `LivePolicy.onDemand`) until the handle is cancelled. Takes effect in the next pass.
  public func observe(_ id: String) -> ObservationHandle {
    core.transition { $0.observationChanged(id, delta: 1) }
    return ObservationHandle(nodeID: id) { [weak core] in core?.transition { $0.observationChanged(id, delta: -1) } }
  }

  /// The live nodes: id, kind, policy, whether they run, their state as JSON (as of the last
  /// completed pass).
  public func liveNodes() async -> [LiveNodeInfo] { await core.read { $0.liveNodes } }

  /// The store's document with the live state of every live node in `flowRuntime.liveState`,
  /// ready to save (`jsonString()`); an engine made from it resumes where this one is.
  public func documentWithLiveState() async -> FlowDocument {
    var document = store.export()
    document.liveState = await core.read { $0.liveState }
    return document
  }

  /// A copy of the evaluator as of the last completed pass (waits if a pass runs): for reading
  /// many results at once, as `flow run` does when it prints.
  public func evaluatorSnapshot() async -> GraphEvaluator { await core.read { $0 } }

  /// How many live-source tasks are alive (for tests and progress lines).
  package var runningSourceCount: Int { core.runningSourceCount }

  /// How many emissions passes have processed.
  public var processedEmissionCount: Int { core.state.withLock { $0.machine.processedEmissions } }

  /// How many emissions wait in the buffer (never more than `emissionBufferCapacity`, plus
  /// one put back by a stopped pass and one end marker per source).
  package var queuedEmissionCount: Int { core.state.withLock { $0.machine.queuedEmissionCount } }

  /// How many sources are suspended because the emission buffer is full (back-pressure).
  package var suspendedSourceCount: Int { core.state.withLock { $0.machine.blocked.count } }

  /// Waits until no live-source task is alive (after removals, reloads, shutdown).
  package func waitUntilNoSourceRuns() async { await core.waitUntilNoSourceRuns() }

  /// Waits until every live source has finished and its emissions were processed, or until
  /// the emission limit (`stopEmissions(after:)`) is reached, and the engine is idle.
  public func waitForLiveSources() async { await core.waitForQuiescence() }

  /// Stops taking emissions once `count` more were processed (`nil`: none more; the running
  /// pass still finishes). Sources keep running (suspended by back-pressure) until shutdown.
  public func stopEmissions(after count: Int? = nil) {
    if let count {
      core.limitEmissions(to: processedEmissionCount + count)
    } else {
      core.limitEmissions(to: nil)
    }
  }
}
