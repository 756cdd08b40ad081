extension GraphEvaluator {
  /// Traps if the evaluator's bookkeeping is inconsistent: each part's own invariants (graph,
  /// dirty set, failures, pending nodes, demand, live table, lazy table, an idle pass machine), then what
  /// ties them together: per-node arrays of one length, the failure count against the records,
  /// nodes waiting to be computed are dirty. Only with `FLOW_INTERNAL_CHECKS`.
  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    graph._checkInvariants()
    dirtySet._checkInvariants()
    failureTable._checkInvariants()
    pendingSet._checkInvariants()
    demand._checkInvariants()
    live._checkInvariants()
    passMachine._checkInvariants(betweenPasses: true)
    tableBudget?._checkInvariants()
    lazy._checkInvariants()
    let count = graph.nodeCount
    precondition(
      dirtySet.marks.count == count && pendingSet.marks.count == count && demand.counts.count == count,
      "Internal inconsistency: per-node arrays differ in length")
    precondition(
      (0..<Int32(count)).filter { graph.record($0).failure >= 0 }.count == failureTable.count,
      "Internal inconsistency: failed count is off")
    precondition(
      failureTable.messages.keys.allSatisfy { graph.record($0).failure == $0 },
      "Internal inconsistency: a failure message for a node that did not fail by itself")
    precondition(
      demand.refreshing.allSatisfy { dirtySet.marks[Int($0)] },
      "Internal inconsistency: a node waiting to be computed is not dirty")
    precondition(
      live.nodes.keys.allSatisfy { !graph.flags(of: $0).contains(.removed) },
      "Internal inconsistency: a removed node keeps live state")
    #endif
  }
}
