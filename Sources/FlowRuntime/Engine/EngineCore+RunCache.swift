import FlowGraph

// The run cache in a host engine (`EngineOptions.cache`; the state is `EngineCache`): the
// first evaluator is made from the plan's rewrite of the store's graph, store changes that
// reach a served node rebuild it from a new plan (what kept its key keeps its values), and
// each pass keeps what ran and reports what was served.

extension EngineCore {
  /// The first evaluator, planned with the cache: `nil` without a cache or for a graph with
  /// live nodes (then the engine starts as without one).
  ///
  /// - Throws: the problems of nodes this registry cannot configure.
  func makeCachedEvaluator(_ graph: ResolvedGraph, payloads: [(any Sendable)?], observing: [String])
    throws(GraphValidationError) -> GraphEvaluator?
  {
    guard let cache = options.cache else { return nil }
    let state = EngineCache(
      cache: cache.store, registry: registry, demandDriven: options.demandDriven,
      document: graph.document, observed: observing)
    guard !state.plan.keys.hasLiveNodes else { return nil }
    var evaluator =
      state.plan.served.isEmpty
      ? try makeEvaluator(graph, payloads: payloads)
      : try GraphEvaluator(validating: state.plan.document, registry: state.plan.registry, options: options)
    evaluator.runCache = state
    return evaluator
  }

  /// Applies store `changes` to an evaluator with a cache: to its document and keys, and
  /// either not to the graph (returns `false`: the caller applies them as usual) or by
  /// rebuilding the graph from a new plan when they reach a served node (returns `true`).
  ///
  /// The new plan serves each node whose key did not change from the values the evaluator
  /// holds (not a node left dirty by a stopped pass), else from the folder, so the next pass
  /// runs the edited nodes and their descendants only. A change that adds a live node
  /// rebuilds the graph as the store has it, without the cache from then on.
  ///
  /// - Complexity: O(*n* + *m*) for the keys (one `open` per file read), plus O(*n*) for a
  ///   rebuild.
  func applyCached(_ changes: [FlowStoreChange], to evaluator: inout GraphEvaluator) -> Bool {
    guard !changes.isEmpty, var state = evaluator.runCache else { return false }
    let touched = state.apply(changes)
    let keys = RunCacheKeys(
      document: state.document, registry: registry, productVersion: state.cache.productVersion,
      verifiesReads: state.cache.verifiesReads)
    guard state.mustRebuild(touched: touched, keys: keys) || (keys.hasLiveNodes && !state.plan.served.isEmpty) else {
      state.plan.keys = keys
      evaluator.runCache = keys.hasLiveNodes ? nil : state
      return false
    }
    var fresh: GraphEvaluator?
    if !keys.hasLiveNodes {
      var memory: [String: (key: CacheKey, values: [Value])] = [:]
      for (id, node) in state.plan.keys.nodes {
        guard let key = node.key, let index = evaluator.graph.indexByID[id], !evaluator.dirtySet.marks[Int(index)],
          let values = evaluator.portValues(of: id)
        else { continue }
        memory[id] = (key, values.map(\.value))
      }
      let next = EngineCache(
        cache: state.cache, registry: registry, demandDriven: options.demandDriven, document: state.document,
        observed: Array(evaluator.demand.observers.keys), memory: memory, keys: keys)
      fresh = try? GraphEvaluator(validating: next.plan.document, registry: next.plan.registry, options: options)
      fresh?.runCache = next
    }
    if fresh == nil { fresh = try? GraphEvaluator(validating: state.document, registry: registry, options: options) }
    guard var fresh else {
      evaluator.runCache = nil
      return false
    }
    for (id, count) in evaluator.demand.observers { for _ in 0..<count { fresh.observe(id) } }
    fresh.progress = evaluator.progress
    evaluator = fresh
    return true
  }
}

extension GraphEvaluator {
  /// After a pass of an evaluator with a cache: keeps what ran and is worth keeping, and
  /// reports the served nodes as `fromCache`, not as `ran`.
  ///
  /// - Complexity: O(*r*) for *r* nodes that ran, plus the entries written.
  mutating func finishCachedPass(_ report: EvaluationReport) -> EvaluationReport {
    guard var state = runCache else { return report }
    state.plan.keep(from: self, report: report, shown: [], evictsAlways: false)
    var result = report
    if !state.plan.served.isEmpty {
      let served = state.plan.served
      result = EvaluationReport(
        revision: report.revision, wasCancelled: report.wasCancelled, duration: report.duration,
        nodeIDs: report.nodeIDs, ran: report.ranIndices.filter { !served.contains(report.nodeIDs[Int($0)]) },
        cutOff: report.cutOffIndices, failed: report.failedIndices, failureMessages: report.failureMessages,
        durations: report.durationsByIndex, starts: report.startsByIndex, notEager: report.notEagerIndices,
        brought: report.broughtIndices, caught: report.caughtByIndex)
    }
    if !report.wasCancelled {
      result.fromCache = state.unreported
      state.unreported = []
    }
    runCache = state
    return result
  }
}
