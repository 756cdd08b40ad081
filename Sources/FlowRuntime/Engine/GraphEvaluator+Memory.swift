extension GraphEvaluator {
  /// Bytes held by the evaluator's per-node and per-edge state (allocated capacities times
  /// element sizes, dictionaries by their entry count), for `flow-bench`'s memory row. Strings
  /// are counted at their inline size; a configuration shared by many nodes once.
  package var memoryFootprint: (bytes: Int, nodes: Int) {
    func bytes<Element>(_ array: [Element]) -> Int { array.capacity * MemoryLayout<Element>.stride }
    var total = graph.storage.allocatedBytes
    total +=
      graph.indexByID.allocatedBytes + bytes(graph.configurations) + bytes(graph.successorCapacity)
      + bytes(graph.freeSlots)
    total +=
      bytes(graph.boxed) + bytes(graph.freeBoxed) + bytes(graph.freeConfigurations) + bytes(graph.configurationUsers)
    for configuration in graph.configurations
    where configuration.sharedKey == nil || configuration.sharedKey == EvaluationGraph.groupKey {
      total += bytes(configuration.unconnected)
    }
    total += bytes(graph.order.position) + bytes(graph.order.nodeAt)
    total += bytes(dirtySet.marks) + bytes(pendingSet.marks) + bytes(demand.stale) + bytes(demand.counts)
    total += passMachine.allocatedBytes + bytes(dirtySet.list)
    total += queue.allocatedBytes + ranList.allocatedBytes + cutOffList.allocatedBytes
    total += edgeEnds.capacity * (MemoryLayout<String>.stride + MemoryLayout<EdgeEnds>.stride + 1)
    return (total, graph.nodeCount)
  }
}
