/// The source behind `watch: true` on file readers: reads the file on the engine's clock every
/// `interval` and emits the reader's outputs whenever the file's bytes changed (the first read
/// is the first emission). Changes are told by `FileWatcher`.
public struct FileWatchSource: LiveSource {
  let evaluator: any NodeEvaluator
  let outputCount: Int
  let interval: Duration
  let bytes: @Sendable () throws -> [UInt8]

  /// - Parameters:
  ///   - evaluator: the reader's evaluator (no inputs), run when the bytes changed.
  ///   - outputCount: its number of output ports.
  ///   - interval: how often the file is checked.
  ///   - bytes: reads the file's bytes (for change detection).
  public init(
    evaluator: any NodeEvaluator, outputCount: Int, interval: Duration,
    bytes: @escaping @Sendable () throws -> [UInt8]
  ) {
    self.evaluator = evaluator
    self.outputCount = outputCount
    self.interval = interval
    self.bytes = bytes
  }

  public var initialState: Value { .integer(0) }

  public func restore(_ saved: Value) throws(NodeError) -> Value {
    guard let reads = saved.integerValue, reads >= 0 else { throw NodeError("expected a read count, found \(saved)") }
    return .integer(reads)
  }

  public func run(from state: Value, _ emitter: LiveEmitter) async throws {
    var reads = state.integerValue ?? 0
    var watcher = FileWatcher<[UInt8]>()
    while true {
      if watcher.see(try bytes()) {
        var outputs = NodeOutputs(Array(repeating: Value.integer(0), count: outputCount))
        try evaluator.evaluate(NodeInputs([]), &outputs)
        reads += 1
        try await emitter.emit(outputs.values, state: .integer(reads))
      }
      try await emitter.sleep(for: interval)
    }
  }
}
