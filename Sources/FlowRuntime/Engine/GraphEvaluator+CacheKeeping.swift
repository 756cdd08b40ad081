// `flow run --cache` keeps tables while the pass goes on: each node the pass settles is
// offered to the evaluator's `RunCacheKeeper`, which writes an entry for it in the background.
// The offer is made where a settled node counts its inputs down (`GraphEvaluator+Release.swift`),
// so it happens only in passes that release consumed tables, before any of the node's own
// tables can be released (its readers run after it).

extension GraphEvaluator {
  /// Offers `node`, just settled in this pass, to the keeper: only a node that ran and holds a
  /// value (not one that failed, through an input or its own, or waits on a pending input).
  func offerToCache(_ node: Int32, _ keeper: RunCacheKeeper) {
    let id = graph.ids[Int(node)]
    guard keeper.wants(id), graph.record(node).failure < 0, !pendingSet.marks[Int(node)], stateKind(of: node) == .value
    else { return }
    let start = Int(graph.record(node).outputStart)
    keeper.offer(id, values: graph.outputNames(of: node).enumerated().map { ($1, graph.value(inSlot: start + $0)) })
  }
}
