/// Dropping tombstones, so that a long-lived store that keeps adding and removing nodes and
/// edges does not grow without bound.
///
/// A tombstone may be revived by an operation in the undo or redo history, so the history's
/// slots are kept; every other tombstone goes, the remaining slots keep their relative order
/// (so `nodes` and `edges` list in the same order) and the history is renumbered to match.
extension StoreState {
  /// A renumbering of node and edge slots: `nodes[old]` / `edges[old]` is the new slot, or -1
  /// for a dropped tombstone.
  struct SlotMap: Sendable {
    var nodes: [Int32]
    var edges: [Int32]

    func node(_ slot: Int32) -> Int32 { slot < 0 ? slot : nodes[Int(slot)] }
    func edge(_ slot: Int32) -> Int32 { slot < 0 ? slot : edges[Int(slot)] }

    func ends(_ end: EdgeEnds) -> EdgeEnds {
      EdgeEnds(
        source: node(end.source), sourcePort: end.sourcePort, target: node(end.target), targetPort: end.targetPort)
    }

    /// `operation` with its slots renumbered.
    func operation(_ operation: StoreStep) -> StoreStep {
      switch operation {
      case .insertNode(let slot, let node, let signature):
        .insertNode(slot: self.node(slot), node: node, signature: signature)
      case .deleteNode(let slot): .deleteNode(slot: node(slot))
      case .replaceNode(let slot, let node, let signature, let ports):
        .replaceNode(
          slot: self.node(slot), node: node, signature: signature,
          ports: ports.map { .init(edge: edge($0.edge), sourcePort: $0.sourcePort, targetPort: $0.targetPort) })
      case .insertEdge(let slot, let edge, let end): .insertEdge(slot: self.edge(slot), edge: edge, ends: ends(end))
      case .deleteEdge(let slot): .deleteEdge(slot: edge(slot))
      case .replaceEdge(let slot, let edge, let end): .replaceEdge(slot: self.edge(slot), edge: edge, ends: ends(end))
      case .replaceInlined(let replacement):
        // Without tokens: their claims were made in the old layout (`StoreStamps`).
        .replaceInlined(
          InlinedReplacement(slots: replacement.slots.map(node), before: replacement.before, after: replacement.after))
      }
    }
  }

  /// How many tombstones there are, nodes and edges.
  var tombstoneCount: Int { (nodes.count - nodeCount) + (ends.count - edgeCount) }

  /// Adds the slots `operation` refers to, as it or its replay would need them, to the sets.
  static func markSlots(of operation: StoreStep, nodes: inout [Bool], edges: inout [Bool]) {
    func node(_ slot: Int32) { if slot >= 0 && Int(slot) < nodes.count { nodes[Int(slot)] = true } }
    func edge(_ slot: Int32) { if slot >= 0 && Int(slot) < edges.count { edges[Int(slot)] = true } }
    switch operation {
    case .insertNode(let slot, _, _), .deleteNode(let slot): node(slot)
    case .replaceNode(let slot, _, _, let ports):
      node(slot)
      for port in ports { edge(port.edge) }
    case .insertEdge(let slot, _, let end), .replaceEdge(let slot, _, let end):
      edge(slot)
      node(end.source)
      node(end.target)
    case .deleteEdge(let slot): edge(slot)
    case .replaceInlined(let replacement): for slot in replacement.slots { node(slot) }
    }
  }

  /// Drops every tombstone that no operation of `history` refers to.
  ///
  /// - Parameter history: the operations that may still be applied (undo and redo steps and
  ///   their inverses); renumber them with the returned map.
  /// - Returns: the renumbering.
  /// - Complexity: O(*n* + *m* + the history's size).
  mutating func compact(keeping history: some Sequence<StoreStep>) -> SlotMap {
    initialPayloads = []  // by the old slots
    var keepNodes = nodes.map { $0 != nil }
    var keepEdges = ends.map { $0.source >= 0 }
    for operation in history { Self.markSlots(of: operation, nodes: &keepNodes, edges: &keepEdges) }
    var map = SlotMap(
      nodes: [Int32](repeating: -1, count: nodes.count), edges: [Int32](repeating: -1, count: ends.count))
    var nextSlot: Int32 = 0
    for slot in nodes.indices where keepNodes[slot] {
      map.nodes[slot] = nextSlot
      nextSlot += 1
    }
    nextSlot = 0
    for slot in ends.indices where keepEdges[slot] {
      map.edges[slot] = nextSlot
      nextSlot += 1
    }

    let keptNodes = nodes.indices.filter { keepNodes[$0] }
    nodes = keptNodes.map { nodes[$0] }
    stamps.resetAll()
    signatures = keptNodes.map { signatures[$0] }
    lists = lists.compacted(keeping: keptNodes) { map.edge($0) }  // the map keeps outgoing lists ascending
    let newNodes = nodes
    nodeIndex = IDTable(slots: newNodes.indices.lazy.filter { newNodes[$0] != nil }.map { Int32($0) }, count: nodeCount)
    {
      newNodes[Int($0)]?.id
    }

    let keptEdges = ends.indices.filter { keepEdges[$0] }
    edgeIDs = keptEdges.map { edgeIDs[$0] }
    ends = keptEdges.map { ends[$0] == .none ? .none : map.ends(ends[$0]) }
    edgeFlags = keptEdges.map { edgeFlags[$0] }
    edgeExtras = Dictionary(uniqueKeysWithValues: edgeExtras.map { (map.edges[Int($0.key)], $0.value) })
    let newIDs = edgeIDs
    let newEnds = ends
    edgeIndex = IDTable(
      slots: newEnds.indices.lazy.filter { newEnds[$0].source >= 0 }.map { Int32($0) }, count: edgeCount
    ) {
      newIDs[Int($0)]
    }

    order = TopologicalOrder(
      validOrder: order.orderedNodes.compactMap { map.nodes[Int($0)] >= 0 ? map.nodes[Int($0)] : nil })
    return map
  }
}
