import FlowRuntime

/// `clock`: emits 1, 2, 3 … every `interval` seconds on the engine's clock; finished after
/// `limit` ticks. A restored clock resumes after the tick it saved. An interval below 1 ms is a
/// validation error.
struct ClockNode: NodeKind {
  /// The shortest interval (Reference.md, "Files and limits"): a clock cannot busy-loop the machine.
  static let minimumInterval = 0.001
  var name: String { "clock" }
  var summary: String { "live source: emits tick 1, 2, 3 … every interval seconds (params interval, limit)" }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration("interval", .number, default: .number(1), summary: "seconds between ticks"),
      ParameterDeclaration("limit", .integer, summary: "stop after this many ticks")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let seconds = parameters.number("interval") ?? 1
    guard seconds.isFinite, seconds >= Self.minimumInterval, seconds <= 1e9 else {
      throw NodeConfigurationError(
        parameter: "interval",
        reason: "must be a number of seconds from \(Self.minimumInterval) to 1e9, found \(seconds)")
    }
    let limit = parameters.integer("limit")
    if let limit, limit < 0 { throw NodeConfigurationError(parameter: "limit", reason: "must be ≥ 0, found \(limit)") }
    return NodeInstance(
      inputs: [], outputs: [PortDeclaration("tick", .integer)], evaluator: LiveNodeEvaluator(),
      live: .source(Source(interval: .nanoseconds(Int64((seconds * 1e9).rounded())), limit: limit)))
  }

  struct Source: LiveSource {
    let interval: Duration
    let limit: Int64?
    var initialState: Value { .integer(0) }

    func restore(_ saved: Value) throws(NodeError) -> Value {
      guard case .integer(let ticks)? = saved.integerValue.map(Value.integer), ticks >= 0 else {
        throw NodeError("expected the last tick (a whole number ≥ 0), found \(saved)")
      }
      return .integer(ticks)
    }

    func run(from state: Value, _ emitter: LiveEmitter) async throws {
      try await ticks(on: emitter.clock, from: state.integerValue ?? 0, emitter)
    }

    /// Ticks at deadlines `start + k × interval`, so a slow consumer does not make it drift.
    private func ticks<C: Clock>(on clock: C, from last: Int64, _ emitter: LiveEmitter) async throws
    where C.Duration == Duration {
      var tick = last
      var deadline = clock.now
      while limit.map({ tick < $0 }) ?? true {
        deadline = deadline.advanced(by: interval)
        try await clock.sleep(until: deadline, tolerance: nil)
        tick += 1
        try await emitter.emit([.integer(tick)], state: .integer(tick))
      }
    }
  }
}

extension ClockNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.live) }
}
