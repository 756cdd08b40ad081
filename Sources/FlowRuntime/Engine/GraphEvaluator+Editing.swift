import FlowGraph

/// Where an edge attaches (kept for edits that name edges by id). Ports are kept by name: a
/// reconfigured node (a new formula) may renumber its ports while its edges stay.
struct EdgeEnds: Sendable, Hashable {
  var source: Int32
  var sourcePort: Int32
  var target: Int32
  var targetPort: Int32
  var targetPortName: String
}

extension GraphEvaluator {
  /// Applies the items of one accepted store change, in order, with what the store resolved
  /// for them: nodes take the store's configuration (configured once, by the store), removed
  /// edges are found from the edge the store hands back (no index of edges by id).
  mutating func apply(_ change: FlowStoreChange) {
    if change.resolutions.payloadsShared { return applySharingPayloads(change) }
    for (index, item) in change.items.enumerated() {
      if case .subgraphReplaced(let replacement) = item {
        apply(replacement, payloads: change.resolutions.inlinedPayloads)
        continue
      }
      let resolved = change.resolutions.item(index)
      apply(item, payload: resolved.payload, previousEdge: resolved.previousEdge, signature: resolved.signature)
    }
  }

  /// Applies one accepted store change to the evaluator, marking what it affects dirty.
  ///
  /// The store validated the change (ids, handles, types, acyclicity), so the edits here only
  /// move indices; an edge insertion updates the topological order (two-way search, gapped labels) in
  /// O(affected). Geometry and selection changes affect nothing.
  ///
  /// - Parameters:
  ///   - payload: the store's payload for an added or replaced node (configured here if `nil`
  ///     or another registry's).
  ///   - previousEdge: for an edge removal or replacement, the edge as it was; without it the
  ///     edge is looked up in `edgeEnds` (filled by `indexEdges`, for callers without a store).
  ///   - signature: for an added or replaced node some of whose params edges feed, the store's
  ///     signature of it (the node then takes those params as inputs).
  mutating func apply(
    _ item: FlowStoreChange.Item, payload: (any Sendable)? = nil, previousEdge: FlowEdge? = nil,
    signature: NodeSignature? = nil
  ) {
    switch item {
    case .node(.add(let node)): addNode(node, configured: configuration(of: node, payload, fed: signature))
    case .node(.remove(let id)): removeNode(id)
    case .node(.replace(let node)): replaceNode(node, configured: configuration(of: node, payload, fed: signature))
    case .node(.position), .node(.dimensions), .node(.select), .edge(.select): break
    case .edge(.add(let edge)): addEdge(edge)
    case .edge(.remove(let id)): removeEdge(id, previous: previousEdge)
    case .edge(.replace(let edge)):
      removeEdge(edge.id, previous: previousEdge)
      addEdge(edge)
    case .subgraphReplaced(let replacement): apply(replacement, payloads: [])
    }
  }

  /// The store's configuration of `node` if it is this registry's, else a new one; taking the
  /// params edges feed as inputs where the store's signature `fed` has them.
  func configuration(of node: FlowNode, _ payload: (any Sendable)?, fed: NodeSignature? = nil) -> ConfiguredNode {
    conforming(registry.configured(fromPayload: payload) ?? registry.configureValidated(node), node, to: fed)
  }

  /// `configured` taking the params edges feed as inputs where the store's signature `fed` has
  /// them (`NodeKindRegistry.conforming(_:to:spec:)`).
  func conforming(_ configured: ConfiguredNode, _ node: FlowNode, to fed: NodeSignature?) -> ConfiguredNode {
    guard let fed else { return configured }
    return registry.conforming(configured, to: fed, spec: node.data)
  }

  /// Remembers where each edge of `edges` attaches, so later changes can name edges by id.
  mutating func indexEdges(_ edges: [FlowEdge]) {
    edgeEnds.reserveCapacity(edges.count)
    for edge in edges {
      guard let ends = ends(of: edge) else { continue }
      edgeEnds[edge.id] = ends
    }
  }

  func ends(of edge: FlowEdge) -> EdgeEnds? {
    guard let source = graph.indexByID[edge.sourceNodeID], let target = graph.indexByID[edge.targetNodeID] else {
      return nil
    }
    let outputs = graph.outputNames(of: source)
    let inputs = graph.inputNames(of: target)
    guard let sourcePort = edge.sourceHandleID.map({ outputs.firstIndex(of: $0) }) ?? (outputs.count == 1 ? 0 : nil),
      let targetPort = edge.targetHandleID.map({ inputs.firstIndex(of: $0) }) ?? (inputs.count == 1 ? 0 : nil)
    else { return nil }
    return EdgeEnds(
      source: source, sourcePort: Int32(sourcePort), target: target, targetPort: Int32(targetPort),
      targetPortName: inputs[targetPort])
  }

  /// Adds `node` with its configuration (made here when `nil`).
  mutating func addNode(_ node: FlowNode, configured: ConfiguredNode? = nil) {
    let configured = configured ?? registry.configureValidated(node)
    let index = graph.appendNode(id: node.id, configured)
    dirtySet.appendNode()
    pendingSet.marks.append(false)
    demand.appendNode(id: node.id)
    registerLive(index, configured, kind: node.data.kind, saved: nil)
    markDirty(index)
  }

  mutating func removeNode(_ id: String) {
    guard let node = graph.indexByID[id] else { return }
    for port in 0..<graph.inputCount(of: node) { disconnectTracked(target: node, port: port) }
    for successor in Set(graph.successors(of: node)) {
      for port in 0..<graph.inputCount(of: successor) where graph.sourceNode(of: successor, input: port) == node {
        disconnectTracked(target: successor, port: port)
      }
      markDirty(successor)
    }
    demand.counts[Int(node)] = 0
    demand.stale[Int(node)] = false
    demand.refreshing.remove(node)
    clearPending(node)
    retireLive(node)
    if graph.record(node).failure >= 0 { clearFailure(node) }
    graph.retire(node)
    graph.indexByID[id] = nil
  }

  /// A node's spec changed: reconfigure it and reconnect its edges by port name (a new formula
  /// may reorder or add ports).
  mutating func replaceNode(_ node: FlowNode, configured: ConfiguredNode? = nil) {
    guard let index = graph.indexByID[node.id] else { return }
    replaceNode(node, at: index, configured: configured ?? registry.configureValidated(node))
  }

  /// `replaceNode(_:configured:)` of the live node at `index` (whose id is `node.id`).
  mutating func replaceNode(_ node: FlowNode, at index: Int32, configured: ConfiguredNode) {
    let oldInputs = graph.inputNames(of: index)
    let oldOutputs = graph.outputNames(of: index)
    // The same ports, nothing live: the edges stay as they are (a param change, the common case).
    if configured.instance.live == nil && !graph.flags(of: index).contains(.live)
      && configured.inputNames == oldInputs && configured.outputNames == oldOutputs
    {
      graph.reconfigureKeepingEdges(index, configured)
      clearPending(index)
      markDirty(index)
      return
    }
    var incoming: [(name: String, source: Int32, port: Int32)] = []
    for port in 0..<graph.inputCount(of: index) {
      let source = graph.sourceNode(of: index, input: port)
      guard source >= 0 else { continue }
      incoming.append((oldInputs[Int(port)], source, graph.sourcePort(of: index, input: port)))
      disconnectTracked(target: index, port: port)
    }
    var outgoing: [(target: Int32, port: Int32, name: String)] = []
    for successor in Set(graph.successors(of: index)) {
      for port in 0..<graph.inputCount(of: successor) where graph.sourceNode(of: successor, input: port) == index {
        outgoing.append((successor, port, oldOutputs[Int(graph.sourcePort(of: successor, input: port))]))
        disconnectTracked(target: successor, port: port)
      }
    }
    graph.reconfigure(index, configured)
    retireLive(index)
    clearPending(index)
    registerLive(index, configured, kind: node.data.kind, saved: nil)
    for edge in incoming {
      guard let port = graph.inputNames(of: index).firstIndex(of: edge.name) else { continue }
      connectTracked(source: edge.source, port: edge.port, target: index, port: Int32(port))
    }
    for edge in outgoing {
      guard let port = graph.outputNames(of: index).firstIndex(of: edge.name) else { continue }
      connectTracked(source: index, port: Int32(port), target: edge.target, port: edge.port)
      markDirty(edge.target)
    }
    markDirty(index)
  }

  mutating func addEdge(_ edge: FlowEdge) {
    guard let ends = ends(of: edge) else {
      preconditionFailure("Internal inconsistency: the store accepted edge '\(edge.id)' but its ends do not resolve")
    }
    if let cycle = graph.order.insertEdge(from: ends.source, to: ends.target, in: graph) {
      preconditionFailure(
        "Internal inconsistency: the store accepted edge '\(edge.id)' closing a cycle of \(cycle.count)")
    }
    disconnectTracked(target: ends.target, port: ends.targetPort)
    connectTracked(source: ends.source, port: ends.sourcePort, target: ends.target, port: ends.targetPort)
    if !edgeEnds.isEmpty { edgeEnds[edge.id] = ends }
    markDirty(ends.target)
  }

  /// Removes the edge `id`, found from `previous` (the edge as the store had it) or else in
  /// `edgeEnds`.
  mutating func removeEdge(_ id: String, previous: FlowEdge? = nil) {
    let recorded = edgeEnds.isEmpty ? nil : edgeEnds.removeValue(forKey: id)
    guard let ends = previous.flatMap({ ends(of: $0) }) ?? recorded, !graph.flags(of: ends.target).contains(.removed),
      let port = graph.inputNames(of: ends.target).firstIndex(of: ends.targetPortName),
      graph.sourceNode(of: ends.target, input: Int32(port)) == ends.source
    else { return }
    disconnectTracked(target: ends.target, port: Int32(port))
    markDirty(ends.target)
  }
}
