extension FlowStore {
  /// What an engine starts from: the store's graph as `DocumentValidator` would resolve it,
  /// built from what the store holds (no validation), and the catalog's payload of each node
  /// by dense index when the store still has it (else empty).
  package struct ResolvedSnapshot: Sendable {
    package var graph: ResolvedGraph
    package var payloads: [(any Sendable)?]
    package var revision: Int
  }

  /// `observe(_:)` for engines: the snapshot comes resolved, with the payloads the store kept
  /// from its construction (they are handed over once: the store drops them).
  ///
  /// - Complexity: O(*n* + *m*); the signatures and order are shared, not copied, when the
  ///   store has no tombstones.
  package func observeResolved(_ handler: @escaping @Sendable (FlowStoreChange) -> Void)
    -> (snapshot: ResolvedSnapshot, observation: Observation)
  {
    let (snapshot, id) = storage.withLock { storage in
      let id = storage.nextObserverID
      storage.nextObserverID += 1
      storage.observers.append(Storage.Observer(id: id, since: storage.revision, handler: handler))
      let (graph, payloads) = storage.state.resolvedGraph()
      storage.state.initialPayloads = []
      return (ResolvedSnapshot(graph: graph, payloads: payloads, revision: storage.revision), id)
    }
    return (snapshot, Observation(store: self, id: id))
  }
}

extension StoreState {
  /// The live graph with dense indices (live slots in slot order), as validation resolves it,
  /// and the kept payload of each node (empty if the store has none).
  func resolvedGraph() -> (ResolvedGraph, [(any Sendable)?]) {
    let document = snapshot()
    let hasPayloads = initialPayloads.count == nodes.count
    if nodeCount == nodes.count && edgeCount == ends.count {
      var resolvedEdges: [ResolvedGraph.Edge] = []
      resolvedEdges.reserveCapacity(ends.count)
      for (slot, end) in ends.enumerated() {
        resolvedEdges.append(
          ResolvedGraph.Edge(
            source: end.source, sourcePort: end.sourcePort, target: end.target,
            targetPort: end.targetPort, documentIndex: Int32(slot)))
      }
      let graph = ResolvedGraph(
        document: document, signatures: signatures, edges: resolvedEdges,
        topologicalOrder: order.nodeAt)
      return (graph, hasPayloads ? initialPayloads : [])
    }
    // Tombstones: number the live slots densely.
    var dense = [Int32](repeating: -1, count: nodes.count)
    var liveSignatures: [NodeSignature] = []
    var payloads: [(any Sendable)?] = []
    liveSignatures.reserveCapacity(nodeCount)
    for (slot, node) in nodes.enumerated() {
      guard node != nil else { continue }
      dense[slot] = Int32(liveSignatures.count)
      liveSignatures.append(signatures[slot])
      if hasPayloads { payloads.append(initialPayloads[slot]) }
    }
    var resolvedEdges: [ResolvedGraph.Edge] = []
    resolvedEdges.reserveCapacity(edgeCount)
    for end in ends where end.source >= 0 {
      resolvedEdges.append(
        ResolvedGraph.Edge(
          source: dense[Int(end.source)], sourcePort: end.sourcePort,
          target: dense[Int(end.target)], targetPort: end.targetPort,
          documentIndex: Int32(resolvedEdges.count)))
    }
    var topological: [Int32] = []
    topological.reserveCapacity(nodeCount)
    for slot in order.nodeAt where dense[Int(slot)] >= 0 { topological.append(dense[Int(slot)]) }
    let graph = ResolvedGraph(
      document: document, signatures: liveSignatures, edges: resolvedEdges,
      topologicalOrder: topological)
    return (graph, payloads)
  }
}

extension FlowStore {
  /// The ports of node `nodeID` as the store resolved them, with an input for each param an edge
  /// feeds (`NodeSignature.fed(by:)`); `nil` if there is no such node.
  package func resolvedSignature(of nodeID: String) -> NodeSignature? {
    storage.withLock { storage in storage.state.nodeSlot(nodeID).map { storage.state.signatures[Int($0)] } }
  }
}
