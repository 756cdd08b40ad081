extension GraphEvaluator {
  /// Traps if the evaluator's bookkeeping is inconsistent: the graph's invariants, per-node
  /// arrays of one length, dirty marks matching the dirty list, the failure count, and an idle
  /// concurrent scheduler between passes. Only with `FLOW_INTERNAL_CHECKS`.
  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    graph._checkInvariants()
    let count = graph.nodeCount
    precondition(dirtyMark.count == count && pendingMark.count == count && demandCount.count == count && staleMark.count == count,
                 "Internal inconsistency: per-node arrays differ in length")
    precondition(dirtyMark.filter { $0 }.count == pendingDirty.count && pendingDirty.allSatisfy { dirtyMark[Int($0)] },
                 "Internal inconsistency: dirty marks disagree with the dirty list")
    precondition((0..<Int32(count)).filter { graph.record($0).failure >= 0 }.count == failedCount, "Internal inconsistency: failed count is off")
    precondition(pendingMark.filter { $0 }.count == pendingCount, "Internal inconsistency: pending count is off")
    precondition(demandCount.allSatisfy { $0 >= 0 }, "Internal inconsistency: a negative demand count")
    precondition(refreshing.allSatisfy { dirtyMark[Int($0)] && !staleMark[Int($0)] },
                 "Internal inconsistency: a node waiting to be computed is not dirty, or stale")
    precondition(live.staged.isEmpty, "Internal inconsistency: live states staged between passes")
    precondition(live.nodes.keys.allSatisfy { !graph.flags(of: $0).contains(.removed) },
                 "Internal inconsistency: a removed node keeps live state")
    precondition(concurrentState.allSatisfy { $0 == .idle },
                 "Internal inconsistency: a node is left waiting or running between passes")
    #endif
  }
}
