extension StoreState {
  /// Graphs up to this many node and edge slots get the full check after every mutation; larger
  /// ones get the local check around the nodes the mutation touched.
  static let fullCheckLimit = 1_024

  /// Traps unless every invariant of the type holds (see `StoreState`). Compiled only with
  /// `FLOW_INTERNAL_CHECKS`.
  ///
  /// - Complexity: O(*n* + *m*) plus resolving every edge.
  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    let slots = nodes.count
    precondition(signatures.count == slots && incoming.count == slots && outgoing.count == slots
                   && order.count == slots, "Internal inconsistency: node arrays of different sizes")
    precondition(ends.count == edges.count, "Internal inconsistency: edge arrays of different sizes")
    precondition(nodes.count { $0 != nil } == nodeCount && nodeSlot.count == nodeCount,
                 "Internal inconsistency: \(nodeCount) nodes counted, \(nodeSlot.count) ids")
    precondition(edges.count { $0 != nil } == edgeCount && edgeSlot.count == edgeCount,
                 "Internal inconsistency: \(edgeCount) edges counted, \(edgeSlot.count) ids")
    for (id, slot) in nodeSlot {
      precondition(nodes[Int(slot)]?.id == id, "Internal inconsistency: id '\(id)' maps to node slot \(slot)")
    }
    for (id, slot) in edgeSlot {
      precondition(edges[Int(slot)]?.id == id, "Internal inconsistency: id '\(id)' maps to edge slot \(slot)")
    }
    for slot in nodes.indices { checkNode(Int32(slot)) }
    var forward: [(Int32, Int32)] = []
    forward.reserveCapacity(edgeCount)
    for slot in edges.indices {
      if edges[slot] == nil {
        precondition(ends[slot] == .none, "Internal inconsistency: edge tombstone \(slot) has ends")
      } else {
        checkEdge(Int32(slot))
        forward.append((ends[slot].source, ends[slot].target))
      }
    }
    order._checkInvariants(edges: forward)
    #endif
  }

  /// Checks the invariants around the nodes a mutation touched: their edge lists, their edges,
  /// and that those edges go forward in the order. The full check for small graphs.
  func _checkInvariants(after log: StoreLog) {
    #if FLOW_INTERNAL_CHECKS
    if nodes.count + edges.count <= Self.fullCheckLimit {
      _checkInvariants()
      return
    }
    precondition(order.count == nodes.count, "Internal inconsistency: the order has \(order.count) of \(nodes.count) nodes")
    for slot in Set(log.touchedNodes) where slot >= 0 {
      checkNode(slot)
      let place = order.position[Int(slot)]
      precondition(order.nodeAt[Int(place)] == slot, "Internal inconsistency: position/nodeAt disagree at \(place)")
      for edge in incoming[Int(slot)] where edge >= 0 { checkEdge(edge) }
      for edge in outgoing[Int(slot)] { checkEdge(edge) }
    }
    #endif
  }

  #if FLOW_INTERNAL_CHECKS
  /// Checks one node slot's record, id and edge lists.
  private func checkNode(_ slot: Int32) {
    let index = Int(slot)
    guard let node = nodes[index] else {
      precondition(incoming[index].isEmpty && outgoing[index].isEmpty && signatures[index] == NodeSignature(),
                   "Internal inconsistency: node tombstone \(slot) has ports or edges")
      return
    }
    precondition(nodeSlot[node.id] == slot, "Internal inconsistency: node '\(node.id)' is not found by its id")
    precondition(incoming[index].count == signatures[index].inputs.count,
                 "Internal inconsistency: node '\(node.id)' has \(incoming[index].count) input entries")
    for (port, edge) in incoming[index].enumerated() where edge >= 0 {
      precondition(edges[Int(edge)] != nil && ends[Int(edge)].target == slot && ends[Int(edge)].targetPort == Int32(port),
                   "Internal inconsistency: input \(port) of node '\(node.id)' lists edge slot \(edge)")
    }
    for (place, edge) in outgoing[index].enumerated() {
      precondition(place == 0 || outgoing[index][place - 1] < edge, "Internal inconsistency: outgoing of '\(node.id)' unsorted")
      precondition(edges[Int(edge)] != nil && ends[Int(edge)].source == slot,
                   "Internal inconsistency: node '\(node.id)' lists outgoing edge slot \(edge)")
    }
  }

  /// Checks one live edge: its id, that its handles resolve to its ports, that both lists hold
  /// it, and that it goes forward in the order.
  private func checkEdge(_ slot: Int32) {
    guard let edge = edges[Int(slot)] else { preconditionFailure("Internal inconsistency: edge slot \(slot) is empty") }
    let end = ends[Int(slot)]
    precondition(edgeSlot[edge.id] == slot, "Internal inconsistency: edge '\(edge.id)' is not found by its id")
    guard let source = nodes[Int(end.source)], let target = nodes[Int(end.target)],
          source.id == edge.sourceNodeID, target.id == edge.targetNodeID else {
      preconditionFailure("Internal inconsistency: edge '\(edge.id)' is attached to the wrong nodes")
    }
    let resolved = try? EdgeEndpointRule.resolve(edge, sourceSignature: signatures[Int(end.source)],
                                                 targetSignature: signatures[Int(end.target)]).get()
    precondition(resolved?.source == end.sourcePort && resolved?.target == end.targetPort,
                 "Internal inconsistency: edge '\(edge.id)' is attached to ports that its handles do not name")
    precondition(incoming[Int(end.target)][Int(end.targetPort)] == slot,
                 "Internal inconsistency: edge '\(edge.id)' is missing from its target's inputs")
    let list = outgoing[Int(end.source)]
    let place = Self.insertionIndex(of: slot, in: list)
    precondition(place < list.count && list[place] == slot,
                 "Internal inconsistency: edge '\(edge.id)' is missing from its source's list")
    precondition(order.position[Int(end.source)] < order.position[Int(end.target)],
                 "Internal inconsistency: edge '\(edge.id)' goes backward in the topological order")
  }
  #endif
}
