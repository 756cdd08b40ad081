extension EvaluationReport {
  /// This report of a pass that stopped at its budget, followed by `next`, the pass that did
  /// the rest of its work with nothing new in between: one report, as if the pass had not
  /// been interrupted. Node lists are concatenated (no node is in both: `next` only ran nodes
  /// the stopped pass left dirty), `next`'s start offsets shift by this pass's duration, and
  /// the revision and cancellation are `next`'s.
  ///
  /// Both reports index the same node ids: nothing changed the graph between them.
  func continued(by next: EvaluationReport) -> EvaluationReport {
    var starts = startsByIndex
    for (node, start) in next.startsByIndex { starts[node] = duration + start }
    var report = EvaluationReport(
      revision: next.revision, wasCancelled: next.wasCancelled, duration: duration + next.duration,
      nodeIDs: next.nodeIDs, ran: ranIndices + next.ranIndices, cutOff: cutOffIndices + next.cutOffIndices,
      failed: failedIndices + next.failedIndices, failureMessages: failureMessages + next.failureMessages,
      durations: durationsByIndex.merging(next.durationsByIndex) { _, later in later }, starts: starts,
      notEager: next.notEagerIndices, brought: broughtIndices + next.broughtIndices,
      caught: caughtByIndex.merging(next.caughtByIndex) { _, later in later })
    report.fromCache = fromCache + next.fromCache
    return report
  }
}
