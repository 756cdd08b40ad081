extension GraphEvaluator {
  /// Traps if the evaluator's bookkeeping is inconsistent: the graph's invariants, per-node
  /// arrays of one length, dirty marks matching the dirty list, the failure count, and an idle
  /// concurrent scheduler between passes. Only with `FLOW_INTERNAL_CHECKS`.
  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    graph._checkInvariants()
    let count = graph.nodeCount
    precondition(failure.count == count && dirtyMark.count == count && queuedStamp.count == count
                   && evaluationCounts.count == count && changedStamp.count == count,
                 "Internal inconsistency: per-node arrays differ in length")
    precondition(dirtyMark.filter { $0 }.count == pendingDirty.count && pendingDirty.allSatisfy { dirtyMark[Int($0)] },
                 "Internal inconsistency: dirty marks disagree with the dirty list")
    precondition(failure.filter { $0 >= 0 }.count == failedCount, "Internal inconsistency: failed count is off")
    precondition(concurrentState.allSatisfy { $0 == ConcurrentNodeState.idle },
                 "Internal inconsistency: a node is left waiting or running between passes")
    #endif
  }
}
