import FlowGraph

/// Evaluates a graph incrementally, on the calling thread: the synchronous core of FlowRuntime.
///
/// Build one from a validated graph, call `evaluate()` for the first (full) pass, then apply
/// edits (`setUnconnectedInput`, `connect`, …) and call `evaluate()` again: each pass runs
/// only the nodes the edits affect (see `Documentation/Evaluation.md`). `FlowEngine` wraps this type with
/// a `FlowStore`, concurrency and observation; use `GraphEvaluator` directly to evaluate a
/// document once, or from code that has its own threading.
public struct GraphEvaluator: Sendable {
  var graph: EvaluationGraph
  /// The nodes to run in the next pass.
  var dirtySet: DirtySet
  /// Failure messages and count (the roots are in the graph's records).
  var failureTable = FailureTable()
  /// Nodes waiting for a live source's first emission.
  var pendingSet: PendingSet
  /// Observers, necessary nodes, stale nodes (`GraphEvaluator+Demand.swift`).
  var demand: DemandCounts
  /// Live nodes' state, staged states, sources to start and stop.
  var live = LiveTable()
  /// Lazy nodes' needs and the nodes not needed (`GraphEvaluator+LazyPass.swift`).
  var lazy = LazyTable()
  /// The current pass's stamp (`NodeRecord.queuedStamp`, `changedStamp`).
  var pass: UInt32 = 0
  /// The serial pass's queue (`GraphEvaluator+SerialPass.swift`); its stamps are the records'
  /// `queuedStamp`.
  var queue: RecomputeQueue
  /// The concurrent pass's decisions (`PassStateMachine`; idle between passes).
  var passMachine = PassStateMachine()
  /// How many nodes the last serial pass ran (the next one reserves that much for its log).
  var lastRanCount = 0
  /// The lists of a pass's log (nodes that ran, nodes cut off), kept for the next pass.
  var ranList = NodeList()
  var cutOffList = NodeList()
  /// The revision of the last completed pass.
  public internal(set) var revision = 0
  /// Where each edge attaches, once `indexEdges` was called (for edits that name edges).
  var edgeEnds: [String: EdgeEnds] = [:]
  let registry: NodeKindRegistry
  /// The registry's limits (`EvaluationEnvironment.limits`), checked on every node's outputs.
  let limits: RunLimits
  var scratch = EvaluationScratch()
  /// Options of the passes (timing of every node).
  public var options: EngineOptions
  /// Counters a host reads from another thread to show progress (nodes done, node running);
  /// `nil` (the default) costs nothing.
  public var progress: PassProgress?
  /// The table memory budget's state (`EngineOptions.tableMemoryBudget`, fixed when the
  /// evaluator is made; `GraphEvaluator+Eviction.swift`), or `nil` without one.
  var tableBudget: TableBudget?
  /// Where the last definition edit applied in bulk found its nodes (`GraphEvaluator+BulkEditing.swift`).
  var bulkIndices = BulkIndexCache()
  /// The run cache's state in a host engine (`EngineOptions.cache`; `EngineCache.swift`).
  var runCache: EngineCache?
  /// `flow run --cache`'s keeper, offered each node a releasing pass settles
  /// (`GraphEvaluator+CacheKeeping.swift`), or `nil`.
  package var cacheKeeper: RunCacheKeeper?
  /// Per node, the reads of its outputs the current pass has yet to make, while
  /// `EngineOptions.releasesConsumedTables` is on (`GraphEvaluator+Release.swift`); else empty.
  var releaseCountdown: [Int32] = []

  /// An evaluator for a validated graph; every node is dirty until the first `evaluate()`.
  ///
  /// - Parameters:
  ///   - graph: the result of `DocumentValidator.validate`, with the same registry.
  ///   - registry: the kinds that configure the nodes.
  public init(_ graph: ResolvedGraph, registry: NodeKindRegistry, options: EngineOptions = EngineOptions()) {
    let applied = registry.applying(options)
    let configured = applied.conforming(graph.document.nodes.map(applied.configureValidated), to: graph)
    self.init(graph, configured: configured, registry: applied, options: options)
  }

  /// Validates `document` against `registry` and makes an evaluator for it, configuring each
  /// node once (validation and evaluation share the configuration).
  ///
  /// - Throws: every validation problem of the document (Reference.md, "Validation").
  public init(
    validating document: FlowDocument, registry: NodeKindRegistry,
    options: EngineOptions = EngineOptions()
  ) throws(GraphValidationError) {
    let applied = registry.applying(options)
    let (graph, configured) = try applied.validateConfiguring(document)
    self.init(graph, configured: configured, registry: applied, options: options)
  }

  init(_ graph: ResolvedGraph, configured: [ConfiguredNode], registry: NodeKindRegistry, options: EngineOptions) {
    self.graph = EvaluationGraph(graph, configured: configured)
    let count = self.graph.nodeCount
    dirtySet = DirtySet(everyNodeOf: count)
    queue = RecomputeQueue(capacity: count)
    pendingSet = PendingSet(nodeCount: count)
    demand = DemandCounts(nodeCount: count)
    self.registry = registry
    limits = options.limits ?? registry.environment.limits
    self.options = options
    tableBudget = options.tableMemoryBudget.map { TableBudget(limit: $0, nodeCount: count) }
    let saved = graph.document.liveState
    for (index, configuration) in configured.enumerated() where configuration.instance.live != nil {
      let node = graph.document.nodes[index]
      registerLive(Int32(index), configuration, kind: node.data.kind, saved: saved[node.id])
    }
  }

  /// The ids of the nodes, by dense index.
  public var nodeIDs: [String] { graph.ids }

  /// Whether some node waits to be recomputed.
  public var hasPendingWork: Bool { !dirtySet.list.isEmpty || live.emission != nil }

  /// Whether a pass may run synchronously on a mutating thread: no node is expensive and no
  /// node is live (emissions and sources stay with the runner).
  var admitsSynchronousPasses: Bool { graph.expensiveCount == 0 && live.nodes.isEmpty }

  /// The state of node `id` as of the last completed pass: its outputs, its failure, pending,
  /// or not computed (see `NodeState`); `nil` for an unknown or removed id.
  ///
  /// Edits made since that pass show in the next one: between an edit and `evaluate()` a
  /// node keeps the state the last pass left it in.
  public func state(of id: String) -> NodeState? {
    guard let node = graph.indexByID[id], !graph.flags(of: node).contains(.removed) else { return nil }
    return state(ofNode: node)
  }

  /// The state of the present node `node` (see `state(of:)`).
  func state(ofNode node: Int32) -> NodeState {
    let kind = stateKind(of: node)
    switch kind {
    case .value:
      guard tableBudget != nil else { return .value(graph.outputs(of: node)) }
      switch currentOutputValues(of: node) {
      case .success(let values):
        return .value(Dictionary(zip(graph.outputNames(of: node), values)) { first, _ in first })
      case .failure(let error): return .failed(message: error.message, root: graph.ids[Int(node)])
      }
    case .failed:
      let root = graph.record(node).failure
      return .failed(message: failureDescription(of: node) ?? "failed", root: graph.ids[Int(root)])
    case .pending: return .pending
    case .notComputed: return .notComputed
    }
  }

  /// Which case `state(ofNode:)` is, without building its payload.
  func stateKind(of node: Int32) -> NodeState.Kind {
    let index = Int(node)
    let record = graph.record(node)
    if record.failure >= 0 { return .failed }
    if pendingSet.marks[index] { return .pending }
    if demand.stale[index] || (!demand.refreshing.isEmpty && demand.refreshing.contains(node)) { return .notComputed }
    if lazy.hasMissed(node) { return .notComputed }
    // Never run: not computed (a live source's outputs come from its emissions, not runs).
    let ranOrNeedsNot = EvaluationGraph.Flags.inert.rawValue | EvaluationGraph.Flags.live.rawValue
    if record.evaluationCount == 0 && record.flags & ranOrNeedsNot == 0 { return .notComputed }
    return .value
  }

  /// The current outputs of node `id` by port name: its state's outputs (`state(of:)`), so
  /// `nil` for an unknown id and for a node that failed, is pending, or was not computed.
  public func outputs(of id: String) -> [String: Value]? {
    guard let node = graph.indexByID[id], !graph.flags(of: node).contains(.removed), stateKind(of: node) == .value
    else { return nil }
    return tableBudget == nil ? graph.outputs(of: node) : state(ofNode: node).outputs
  }

  /// The outputs of node `id` in port order, as `outputs(of:)` has them (`nil` likewise), for
  /// hosts that print many nodes without a dictionary per node.
  package func portValues(of id: String) -> [(port: String, value: Value)]? {
    guard let node = graph.indexByID[id], !graph.flags(of: node).contains(.removed), stateKind(of: node) == .value
    else { return nil }
    let start = Int(graph.record(node).outputStart)
    if tableBudget != nil, isDropped(node) {
      guard case .success(let values) = currentOutputValues(of: node) else { return nil }
      return zip(graph.outputNames(of: node), values).map { ($0, $1) }
    }
    return graph.outputNames(of: node).enumerated().map { ($1, graph.value(inSlot: start + $0)) }
  }

  /// The value of output `port` of node `id` (`nil` unless the node's state is a value).
  public func value(of id: String, port: String) -> Value? { outputs(of: id)?[port] }

  /// Why node `id` failed in its last evaluation, or `nil` if it did not:
  /// its own error, or `upstream error from <id>` naming the node where the failure started.
  public func failure(of id: String) -> String? {
    guard let node = graph.indexByID[id] else { return nil }
    return failureDescription(of: node)
  }

  func failureDescription(of node: Int32) -> String? {
    let root = graph.record(node).failure
    guard root >= 0 else { return nil }
    if root == node { return failureTable.messages[node] ?? "failed" }
    return "upstream error from \(graph.ids[Int(root)])"
  }

  /// Whether some node waits for a live source's first emission (`isPending(_:)` of one).
  public var hasPendingNodes: Bool { pendingSet.count > 0 }

  /// Whether node `id` waits for a live source's first emission.
  public func isPending(_ id: String) -> Bool { graph.indexByID[id].map { pendingSet.marks[Int($0)] } ?? false }

  /// Every failed node with its message (pending nodes never fail).
  public var failures: [String: String] {
    var result: [String: String] = [:]
    guard failureTable.count > 0 else { return result }
    for node in 0..<Int32(graph.nodeCount) where graph.record(node).failure >= 0 {
      result[graph.ids[Int(node)]] = failureDescription(of: node)
    }
    return result
  }

  /// How many times node `id` has been evaluated.
  public func evaluationCount(of id: String) -> Int? {
    graph.indexByID[id].map { Int(graph.record($0).evaluationCount) }
  }

  /// The ids of the sink nodes: nodes with output ports none of which feeds an edge.
  public var sinks: [String] {
    (0..<Int32(graph.nodeCount)).filter { node in
      let record = graph.record(node)
      return record.outputCount > 0 && record.successorCount == 0
        && EvaluationGraph.Flags(rawValue: record.flags).isDisjoint(with: [.container, .removed])
    }.map { graph.ids[Int($0)] }
  }

  /// The ids of the nodes in the graph (not removed), in the order they were added.
  public var presentNodeIDs: [String] {
    (0..<Int32(graph.nodeCount)).filter { !graph.flags(of: $0).contains(.removed) }.map { graph.ids[Int($0)] }
  }

  /// Marks `node` to be recomputed in the next pass.
  mutating func markDirty(_ node: Int32) { dirtySet.insert(node) }

  /// The nodes marked dirty since the last pass.
  var pendingDirty: [Int32] { dirtySet.list }

  /// Per node: observers plus edges into necessary nodes (`GraphEvaluator+Demand.swift`).
  var demandCount: [Int32] { demand.counts }
}
