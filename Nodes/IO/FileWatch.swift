import FlowRuntime

/// The `watch` and `interval` params of file readers (`readText`, `readCSV`, `readJSON`): with
/// `watch: true` the node is a live source that re-reads the file on the engine's clock and
/// emits when its contents change (Reference.md, "Live nodes").
enum FileWatch {
  static let declarations = [
    ParameterDeclaration(
      "watch", .bool, default: .bool(false), summary: "live: re-read and emit when the file changes"),
    ParameterDeclaration("interval", .number, default: .number(1), summary: "with watch: seconds between checks")
  ]

  /// The live behaviour of a reader configured with `parameters`, or `nil` without `watch`.
  static func behavior(
    _ parameters: NodeParameters, evaluator: any NodeEvaluator, outputCount: Int,
    file: FileParameter
  ) throws(NodeConfigurationError) -> LiveBehavior? {
    guard parameters["watch"] == .bool(true) else { return nil }
    let seconds = parameters.number("interval") ?? 1
    guard seconds.isFinite, seconds >= ClockNode.minimumInterval, seconds <= 1e9 else {  // as `clock`'s
      throw NodeConfigurationError(
        parameter: "interval",
        reason: "must be a number of seconds from \(ClockNode.minimumInterval) to 1e9, found \(seconds)")
    }
    return .source(
      FileWatchSource(
        evaluator: evaluator, outputCount: outputCount,
        interval: .nanoseconds(Int64((seconds * 1e9).rounded())),
        bytes: { try file.read() }))
  }
}
