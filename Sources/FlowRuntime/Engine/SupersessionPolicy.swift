/// What happens to a running pass when the graph changes (FlowStack's vocabulary).
public enum SupersessionPolicy: Sendable, Hashable {
  /// Stop the running pass between nodes (cancelling its child tasks) and start a pass for the
  /// newer revision; the stopped pass publishes no values. The default.
  case replaceRunningPass
  /// Let the running pass finish and publish, then run a pass for the newer revision.
  case queueAfterRunningPass
}
