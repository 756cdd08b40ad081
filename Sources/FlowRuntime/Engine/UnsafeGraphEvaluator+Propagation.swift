// Propagation, the other half of the pass's hot path (see "Algorithm" in `Documentation/Evaluation.md`).
//
// INVARIANT: `columns` are the graph's columns as the pass read them when it began; a pass
// never grows them (`UnsafeGraphStorage`), so the addresses taken here stay valid for the
// pass, and the indices read from records and successor runs are in range (checked by
// `EvaluationGraph._checkInvariants()` in debug, and by `UnsafeColumn.address`'s assertion).

extension GraphEvaluator {
  /// Records that `node` changed in this pass (or was reached by an emission: `forced`) and
  /// queues its successors — or returns the one successor to run next without queueing it.
  ///
  /// *Scheduler bypass* (oneTBB's term): when the queue is empty and the node has a single
  /// successor, that successor is the next node the queue would pop, so it is returned to run
  /// at once instead of going through the queue (a chain costs no push, pop nor label lookup).
  /// In a pass that began with every node queued, nothing is pushed: every successor is there.
  /// Otherwise a successor's stamp says whether it is queued; reading it also brings the
  /// successor's record into the cache well before the successor runs.
  /// - Returns: the node to run next, or -1 to pop the queue.
  /// - Parameter columns: the graph's columns, as the pass read them when it began.
  // `@_transparent` because `@inline(__always)` left it a call from the (large) pass loop.
  @_transparent
  mutating func propagateChange(
    of node: Int32, _ columns: GraphColumns, everyNodeQueued: Bool,
    forced: Bool = false
  ) -> Int32 {
    let record = columns.records.address(Int(node))
    record.pointee.changedStamp = pass
    if everyNodeQueued && !forced { return -1 }
    let start = Int(record.pointee.successorStart)
    let count = Int(record.pointee.successorCount)
    if count == 1 && queue.isEmpty {
      let successor = columns.successors[start]
      if forced { live.emissionReach[Int(successor)] = pass }
      let successorRecord = columns.records.address(Int(successor))
      guard successorRecord.pointee.queuedStamp != pass else { return -1 }
      successorRecord.pointee.queuedStamp = pass
      return successor
    }
    for offset in 0..<count {
      let successor = columns.successors[start + offset]
      if forced { live.emissionReach[Int(successor)] = pass }
      let successorRecord = columns.records.address(Int(successor))
      if successorRecord.pointee.queuedStamp != pass {
        successorRecord.pointee.queuedStamp = pass
        queue.push(graph.order.isIdentity ? successor : graph.order.position[Int(successor)])
      }
    }
    return -1
  }
}
