extension FlowStore {
  /// The ids of the nodes in the store's topological order: every node after the nodes that
  /// feed it. It is the one order the store keeps up to date as edges are added
  /// (`TopologicalOrder`), the order an engine over the store evaluates in; a tool that lists
  /// nodes "in evaluation order" (`flow calc`) reads it here instead of sorting again.
  ///
  /// - Complexity: O(*n*) (the order's labels, holes skipped).
  public var nodeIDsInTopologicalOrder: [String] {
    storage.withLock { storage in
      let state = storage.state
      var ids: [String] = []
      ids.reserveCapacity(state.nodeCount)
      for slot in state.order.nodeAt where slot != TopologicalOrder.hole {
        if let node = state.nodes[Int(slot)] { ids.append(node.id) }
      }
      return ids
    }
  }
}
