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
    precondition(
      signatures.count == slots && lists.nodeCount == slots && order.count == slots,
      "Internal inconsistency: node arrays of different sizes")
    precondition(
      edgeIDs.count == ends.count && edgeFlags.count == ends.count,
      "Internal inconsistency: edge arrays of different sizes")
    precondition(
      nodes.count { $0 != nil } == nodeCount && nodeIndex.count == nodeCount,
      "Internal inconsistency: \(nodeCount) nodes counted, \(nodeIndex.count) ids")
    precondition(
      ends.count { $0.source >= 0 } == edgeCount && edgeIndex.count == edgeCount,
      "Internal inconsistency: \(edgeCount) edges counted, \(edgeIndex.count) ids")
    nodeIndex.forEachSlot { slot in
      precondition(nodes[Int(slot)] != nil, "Internal inconsistency: the id table lists node tombstone \(slot)")
    }
    edgeIndex.forEachSlot { slot in
      precondition(ends[Int(slot)].source >= 0, "Internal inconsistency: the id table lists edge tombstone \(slot)")
    }
    for slot in edgeExtras.keys {
      precondition(
        edgeFlags[Int(slot)].contains(EdgeFlags.hasExtra), "Internal inconsistency: edge slot \(slot) has stray extras")
    }
    lists._checkInvariants()
    for slot in nodes.indices { checkNode(Int32(slot)) }
    var forward: [(Int32, Int32)] = []
    forward.reserveCapacity(edgeCount)
    for slot in ends.indices {
      if ends[slot].source < 0 {
        precondition(
          ends[slot] == .none && edgeIDs[slot].isEmpty && edgeFlags[slot] == .none && edgeExtras[Int32(slot)] == nil,
          "Internal inconsistency: edge tombstone \(slot) has a record")
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
    if nodes.count + ends.count <= Self.fullCheckLimit {
      _checkInvariants()
      return
    }
    precondition(
      order.count == nodes.count, "Internal inconsistency: the order has \(order.count) of \(nodes.count) nodes")
    for slot in Set(log.touchedNodes) where slot >= 0 {
      checkNode(slot)
      let place = order.position[Int(slot)]
      precondition(order.nodeAt[Int(place)] == slot, "Internal inconsistency: position/nodeAt disagree at \(place)")
      for edge in lists.inputs(of: slot) where edge >= 0 { checkEdge(edge) }
      for edge in lists.outputs(of: slot) { checkEdge(edge) }
    }
    #endif
  }

  #if FLOW_INTERNAL_CHECKS
  /// Checks one node slot's record, id and edge lists.
  private func checkNode(_ slot: Int32) {
    let index = Int(slot)
    let inputs = lists.inputs(of: slot)
    let outputs = lists.outputs(of: slot)
    guard let node = nodes[index] else {
      precondition(
        inputs.isEmpty && outputs.isEmpty && signatures[index] == NodeSignature() && stamps.token(at: index) == 0,
        "Internal inconsistency: node tombstone \(slot) has ports, edges or a stamp")
      return
    }
    if let stamp = stamps.entry(stamps.token(at: index)) {
      let owner = index + Int(stamp.count) - 1 - Int(stamp.offset)
      precondition(
        owner < nodes.count && nodes[owner].map { node.isStamped(from: stamp.node, in: $0.id) } == true,
        "Internal inconsistency: node '\(node.id)' is not the template node its stamp names")
    }
    precondition(nodeSlot(node.id) == slot, "Internal inconsistency: node '\(node.id)' is not found by its id")
    precondition(
      inputs.count == signatures[index].inputs.count,
      "Internal inconsistency: node '\(node.id)' has \(inputs.count) input entries")
    for (port, input) in signatures[index].inputs.enumerated()
    where signatures[index].parameterInput(named: input.name) != nil {
      precondition(
        inputs[inputs.startIndex + port] >= 0,
        "Internal inconsistency: node '\(node.id)' keeps an input for param '\(input.name)' without an edge")
    }
    for (port, edge) in inputs.enumerated() where edge >= 0 {
      precondition(
        ends[Int(edge)].source >= 0 && ends[Int(edge)].target == slot && ends[Int(edge)].targetPort == Int32(port),
        "Internal inconsistency: input \(port) of node '\(node.id)' lists edge slot \(edge)")
    }
    var previous: Int32 = -1
    for edge in outputs {
      precondition(previous < edge, "Internal inconsistency: outgoing of '\(node.id)' unsorted")
      precondition(
        ends[Int(edge)].source == slot, "Internal inconsistency: node '\(node.id)' lists outgoing edge slot \(edge)")
      previous = edge
    }
  }

  /// Checks one live edge: its id, that its handles resolve to its ports, that both lists hold
  /// it, and that it goes forward in the order.
  private func checkEdge(_ slot: Int32) {
    guard let edge = edge(at: slot) else { preconditionFailure("Internal inconsistency: edge slot \(slot) is empty") }
    let end = ends[Int(slot)]
    precondition(edgeSlot(edge.id) == slot, "Internal inconsistency: edge '\(edge.id)' is not found by its id")
    precondition(
      edgeFlags[Int(slot)].contains(EdgeFlags.hasExtra) == (edgeExtras[slot] != nil),
      "Internal inconsistency: edge '\(edge.id)' and its extras disagree")
    let resolved = try? EdgeEndpointRule.resolve(
      edge, sourceSignature: signatures[Int(end.source)],
      targetSignature: signatures[Int(end.target)]
    ).get()
    precondition(
      resolved?.source == end.sourcePort && resolved?.target == end.targetPort,
      "Internal inconsistency: edge '\(edge.id)' is attached to ports that its handles do not name")
    precondition(
      lists.input(of: end.target, port: end.targetPort) == slot,
      "Internal inconsistency: edge '\(edge.id)' is missing from its target's inputs")
    let list = lists.outputs(of: end.source)
    let place = list.startIndex + StoreEdgeLists.insertionIndex(of: slot, in: list)
    precondition(
      place < list.endIndex && list[place] == slot,
      "Internal inconsistency: edge '\(edge.id)' is missing from its source's list")
    precondition(
      order.position[Int(end.source)] < order.position[Int(end.target)],
      "Internal inconsistency: edge '\(edge.id)' goes backward in the topological order")
  }
  #endif
}
