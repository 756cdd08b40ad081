extension FlowStore {
  /// Bytes held by the store's graph (array capacities times element sizes, per-node heap
  /// arrays with their headers, dictionaries by capacity, params and handles of each node), for
  /// `flow-bench`'s memory rows. Strings are counted at their inline size (ids up to 15 UTF-8
  /// bytes need no heap); undo history is not counted.
  package var memoryFootprint: (bytes: Int, nodes: Int) {
    storage.withLock { ($0.state.memoryFootprint, $0.state.nodeCount) }
  }
}

extension StoreState {
  /// See `FlowStore.memoryFootprint`.
  var memoryFootprint: Int {
    func bytes<Element>(_ array: [Element]) -> Int { array.capacity * MemoryLayout<Element>.stride }
    /// A heap array's header plus its elements (nothing for an empty one, which is shared).
    func heap<Element>(_ array: [Element]) -> Int { array.capacity > 0 ? 32 + bytes(array) : 0 }
    var total = bytes(nodes) + bytes(signatures) + bytes(incoming) + bytes(outgoing) + bytes(edges) + bytes(ends)
    for node in nodes {
      guard let node else { continue }
      total += heap(node.data.params.members) + heap(node.data.extra.members) + (node.handles.map(heap) ?? 0)
    }
    // Signatures of static kinds share their port arrays; count each distinct buffer once.
    var seen = Set<UnsafeRawPointer>()
    for signature in signatures {
      for ports in [signature.inputs, signature.outputs] where ports.capacity > 0 {
        let address = ports.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress!) }
        if seen.insert(address).inserted { total += heap(ports) }
      }
    }
    total += incoming.reduce(0) { $0 + heap($1) } + outgoing.reduce(0) { $0 + heap($1) }
    total += nodeSlot.capacity * (MemoryLayout<String>.stride + MemoryLayout<Int32>.stride + 1)
    total += edgeSlot.capacity * (MemoryLayout<String>.stride + MemoryLayout<Int32>.stride + 1)
    // The order's positions, its inverse, and its search stamps and parents.
    total += bytes(order.position) + bytes(order.nodeAt) + order.count * 8
    return total
  }
}
