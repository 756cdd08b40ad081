extension FlowStore {
  /// Bytes held by the store's graph (array capacities times element sizes, id tables and
  /// dictionaries by capacity, params and handles of each node), for
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
    var total = bytes(nodes) + bytes(signatures) + lists.allocatedBytes
    total += bytes(edgeIDs) + bytes(ends) + bytes(edgeFlags)
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
    total += nodeIndex.allocatedBytes + edgeIndex.allocatedBytes
    total += edgeExtras.capacity * (MemoryLayout<Int32>.stride + MemoryLayout<EdgeExtra>.stride + 1)
    // The order's positions, its inverse, and its search stamps and parents.
    total += bytes(order.position) + bytes(order.nodeAt) + order.count * 8
    return total
  }
}
