import FlowGraph

extension GraphEvaluator {
  /// `apply(_:)` for a change whose payloads may each serve several nodes (a definition edit:
  /// the store resolved each changed inner node once for all instances). A node whose kind
  /// `sharesConfiguration` takes the one configuration; any other (a custom kind that keeps
  /// per-node state in its instance) is configured here, on its own. The payloads are walked
  /// in item order beside the items (no search per item).
  ///
  /// The replaced nodes are found by index arithmetic where the instances are laid out alike
  /// (`IndexStride`), each guess checked against the node's id; an id is looked up only where
  /// the guess misses.
  mutating func applySharingPayloads(_ change: FlowStoreChange) {
    let payloads = change.resolutions.payloads.all
    var next = 0
    var stride = IndexStride()
    for (index, item) in change.items.enumerated() {
      while next < payloads.count && payloads[next].index < index { next += 1 }
      let payload = next < payloads.count && payloads[next].index == index ? payloads[next].value : nil
      let fed = change.resolutions.signature(ofItem: index)
      switch item {
      case .subgraphReplaced(let replacement):
        apply(replacement, payloads: change.resolutions.inlinedPayloads)
      case .node(.add(let node)):
        addNode(
          node,
          configured: conforming(
            registry.configured(fromSharedPayload: payload) ?? registry.configureValidated(node),
            node, to: fed))
      case .node(.replace(let node)):
        guard let at = stride.guess(node.id, in: graph) ?? graph.indexByID[node.id] else { continue }
        stride.found(at)
        replaceNode(
          node, at: at,
          configured: conforming(
            registry.configured(fromSharedPayload: payload)
              ?? registry.configureValidated(node), node, to: fed))
      default:
        apply(item, payload: payload, previousEdge: change.resolutions.previousEdge(ofItem: index), signature: fed)
      }
    }
  }

  /// Applies a definition edit in bulk: inner node *k* of each instance is reconfigured with
  /// `payloads[k]`'s configuration where its kind shares configurations (else configured on
  /// its own), found where the last bulk edit over the same nodes found them (`BulkIndexCache`:
  /// its undo, redo or the next edit), else by index arithmetic (`IndexStride`, its id compared
  /// in pieces: no id made) or by id. No allocation or hashing per node where the instances are
  /// laid out alike.
  mutating func apply(_ replacement: SubgraphReplacement, payloads: [(any Sendable)?]) {
    let inner = replacement.innerNodes
    let shared = inner.indices.map { index in
      registry.configured(fromSharedPayload: index < payloads.count ? payloads[index] : nil)
    }
    // Not live, so a node with the same ports keeps its edges (`replaceNode`'s common case).
    let prepared = shared.map { configured in
      configured.flatMap { $0.instance.live == nil ? EvaluationGraph.PreparedConfiguration($0) : nil }
    }
    var stride = IndexStride()
    let known = bulkIndices.indices(for: replacement)
    var found: [Int32] = []
    found.reserveCapacity(replacement.nodeChangeCount)
    for instance in replacement.instanceIDs {
      for (index, node) in inner.enumerated() {
        let at: Int32
        if let known, case let cached = known[found.count], cached >= 0, !graph.flags(of: cached).contains(.removed) {
          at = cached
        } else {
          guard let searched = stride.guess(instance, node.id, in: graph) ?? graph.indexByID[instance + node.id] else {
            found.append(-1)
            continue
          }
          at = searched
        }
        stride.found(at)
        found.append(at)
        if let prepared = prepared[index], !graph.flags(of: at).contains(.live), graph.hasPorts(of: prepared, at) {
          graph.reconfigureKeepingEdges(at, prepared)
          clearPending(at)
          markDirty(at)
          continue
        }
        let configured = shared[index] ?? registry.configureValidated(replacement.node(index, of: instance))
        replaceNode(node, at: at, configured: configured)
      }
    }
    bulkIndices.remember(replacement, found)
  }
}

/// Guesses where the next replaced node of a definition edit is: the change lists, instance
/// after instance, the same inner nodes of each, and instances laid out alike sit a fixed
/// distance apart, so node *i* is at node *i − k* plus the distance between nodes *i − k* and
/// *i − 2k*, for the period *k* (the number of nodes replaced per instance, up to 8) that
/// guessed right last. No allocation per node.
struct IndexStride {
  /// The last 16 indices found, a ring.
  private var ring = [Int32](repeating: 0, count: 16)
  private var count = 0
  private var period = 1

  /// A live node of id `id` at a guessed index, or `nil`.
  mutating func guess(_ id: String, in graph: EvaluationGraph) -> Int32? {
    if let index = guess(id, graph, period: period) { return index }
    for period in 1...8 where period != self.period {
      if let index = guess(id, graph, period: period) {
        self.period = period
        return index
      }
    }
    return nil
  }

  /// `guess(_:in:)` of node `instance + relative`, comparing the id in pieces.
  mutating func guess(_ instance: String, _ relative: String, in graph: EvaluationGraph) -> Int32? {
    if let index = guess(instance, relative, graph, period: period) { return index }
    for period in 1...8 where period != self.period {
      if let index = guess(instance, relative, graph, period: period) {
        self.period = period
        return index
      }
    }
    return nil
  }

  /// Records where the last node was.
  mutating func found(_ index: Int32) {
    ring[count & 15] = index
    count += 1
  }

  private func guess(_ id: String, _ graph: EvaluationGraph, period: Int) -> Int32? {
    guard let guess = position(period, graph), graph.indexByID.ids[guess] == id,
      !graph.flags(of: Int32(guess)).contains(.removed)
    else { return nil }
    return Int32(guess)
  }

  private func guess(_ instance: String, _ relative: String, _ graph: EvaluationGraph, period: Int) -> Int32? {
    guard let guess = position(period, graph), graph.indexByID.ids[guess].isConcatenation(instance, relative),
      !graph.flags(of: Int32(guess)).contains(.removed)
    else { return nil }
    return Int32(guess)
  }

  private func position(_ period: Int, _ graph: EvaluationGraph) -> Int? {
    guard 2 * period <= min(count, 16) else { return nil }
    let guess = 2 * Int(ring[(count - period) & 15]) - Int(ring[(count - 2 * period) & 15])
    return guess >= 0 && guess < graph.indexByID.ids.count ? guess : nil
  }
}
