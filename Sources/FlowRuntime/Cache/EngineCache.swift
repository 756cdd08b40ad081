import FlowGraph

/// The run cache in a host engine (`EngineOptions.cache`): the document as the store has it,
/// its keys, and the plan the evaluator's graph was made from. It travels with the evaluator
/// (`GraphEvaluator.runCache`), so only the thread that holds the evaluator touches it.
///
/// The engine's graph is the plan's rewrite: each served node is a `flow.cached` node without
/// incoming edges (see `RunCachePlan`). A store change that reaches no served node — neither
/// touches one nor changes its key — applies to that graph as usual; one that does rebuilds
/// the graph from a new plan over the edited document (`GraphEvaluator+RunCache.swift`).
///
/// Invariants: `document` is the store's graph after every change handed to the evaluator;
/// `plan.keys` are its keys; `plan.served` are the nodes the evaluator's graph holds as
/// `flow.cached` nodes; `unreported` lists the served nodes no completed pass has reported.
struct EngineCache: Sendable {
  let cache: RunCache
  /// The engine's registry (without `flow.cached`).
  let registry: NodeKindRegistry
  /// Serve what observers need (demand-driven engines) or every node.
  let demandDriven: Bool
  var document: FlowDocument
  var plan: RunCachePlan
  var unreported: [String]

  /// The state for `document`, planned for the nodes `demandDriven` engines observe (else all).
  init(
    cache: RunCache, registry: NodeKindRegistry, demandDriven: Bool, document: FlowDocument, observed: [String],
    memory: [String: (key: CacheKey, values: [Value])] = [:], keys: RunCacheKeys? = nil
  ) {
    self.cache = cache
    self.registry = registry
    self.demandDriven = demandDriven
    self.document = document
    plan = RunCachePlan(
      document: document, registry: registry, requested: demandDriven ? observed : document.nodes.map(\.id),
      cache: cache, keys: keys, memory: memory)
    unreported = plan.fromCache
  }

  /// Applies the store's `changes` to `document`.
  ///
  /// - Returns: the nodes whose definition or incoming edges the changes touched, or `nil`
  ///   when a change replaced the whole document.
  /// - Complexity: O(*n* + *m* + *k*) for *n* nodes, *m* edges and *k* changed items.
  mutating func apply(_ changes: [FlowStoreChange]) -> Set<String>? {
    var touched = Set<String>()
    var reloaded = false
    var nodes = document.nodes, edges = document.edges
    var nodeAt: [String: Int] = [:], edgeAt: [String: Int] = [:]
    for (index, node) in nodes.enumerated() { nodeAt[node.id] = index }
    for (index, edge) in edges.enumerated() { edgeAt[edge.id] = index }
    var removedNodes = Set<Int>(), removedEdges = Set<Int>()
    for change in changes {
      if let whole = change.reloadedDocument {
        document = whole
        reloaded = true
        (nodes, edges) = (whole.nodes, whole.edges)
        nodeAt = Dictionary(nodes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { _, last in last })
        edgeAt = Dictionary(edges.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { _, last in last })
        (removedNodes, removedEdges) = ([], [])
        continue
      }
      for item in change.expandedItems {
        switch item {
        case .node(.add(let node)):
          nodeAt[node.id] = nodes.count
          nodes.append(node)
          touched.insert(node.id)
        case .node(.replace(let node)):
          if let index = nodeAt[node.id] { nodes[index] = node }
          touched.insert(node.id)
        case .node(.remove(let id)):
          if let index = nodeAt.removeValue(forKey: id) { removedNodes.insert(index) }
          touched.insert(id)
        case .edge(.add(let edge)):
          edgeAt[edge.id] = edges.count
          edges.append(edge)
          touched.insert(edge.targetNodeID)
        case .edge(.replace(let edge)):
          if let index = edgeAt[edge.id] {
            touched.insert(edges[index].targetNodeID)
            edges[index] = edge
          }
          touched.insert(edge.targetNodeID)
        case .edge(.remove(let id)):
          if let index = edgeAt.removeValue(forKey: id) {
            removedEdges.insert(index)
            touched.insert(edges[index].targetNodeID)
          }
        case .node(.position), .node(.dimensions), .node(.select), .edge(.select), .subgraphReplaced: break
        }
      }
    }
    if !removedNodes.isEmpty { nodes = nodes.enumerated().filter { !removedNodes.contains($0.offset) }.map(\.element) }
    if !removedEdges.isEmpty { edges = edges.enumerated().filter { !removedEdges.contains($0.offset) }.map(\.element) }
    document.nodes = nodes
    document.edges = edges
    return reloaded ? nil : touched
  }

  /// Whether the graph must be rebuilt after `apply` returned `touched`, given the edited
  /// document's `keys`: a served node was touched or its key changed, or a touched node's new
  /// key has an entry (a param edited back to a value the cache has seen).
  func mustRebuild(touched: Set<String>?, keys: RunCacheKeys) -> Bool {
    guard let touched else { return true }
    if plan.served.contains(where: { id in touched.contains(id) || keys.nodes[id]?.key != plan.keys.nodes[id]?.key }) {
      return true
    }
    return touched.contains { id in keys.nodes[id]?.key.map(cache.contains) ?? false }
  }
}
