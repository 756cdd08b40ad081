extension GraphEvaluator {
  /// Bytes held by the evaluator's per-node and per-edge state (array capacities times element
  /// sizes, dictionaries by their entry count), for `flow-bench`'s memory row. Strings and
  /// shared port-name arrays are counted at their inline size.
  package var memoryFootprint: (bytes: Int, nodes: Int) {
    func bytes<Element>(_ array: [Element]) -> Int { array.capacity * MemoryLayout<Element>.stride }
    var total = 0
    total += bytes(graph.ids) + bytes(graph.evaluators) + bytes(graph.flags) + bytes(graph.inputBase)
    total += bytes(graph.inputCount) + bytes(graph.slotBase) + bytes(graph.outputCount) + bytes(graph.inputSource)
    total += bytes(graph.slotOwner) + bytes(graph.values) + bytes(graph.outputNames) + bytes(graph.inputNames)
    total += bytes(graph.inputTypes) + bytes(graph.successors)
    total += graph.successors.reduce(0) { $0 + ($1.capacity > 0 ? 32 + $1.capacity * 4 : 0) }
    total += bytes(graph.order.position) + bytes(graph.order.nodeAt) + graph.order.count * 8
    total += bytes(failure) + bytes(dirtyMark) + bytes(queuedStamp) + bytes(evaluationCounts) + bytes(changedStamp)
    total += bytes(concurrentState) + bytes(waitCount) + bytes(mustRunStamp) + bytes(pendingDirty)
    total += graph.indexByID.capacity * (MemoryLayout<String>.stride + MemoryLayout<Int32>.stride + 1)
    total += edgeEnds.capacity * (MemoryLayout<String>.stride + MemoryLayout<EdgeEnds>.stride + 1)
    total += graph.nodeCount / 4
    return (total, graph.nodeCount)
  }
}
