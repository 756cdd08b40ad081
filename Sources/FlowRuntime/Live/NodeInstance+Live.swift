extension NodeInstance {
  /// An instance of a live kind: its outputs come from `live` (a source's emissions, or a
  /// stateful evaluator's steps), so it needs no `NodeEvaluator` of its own.
  ///
  /// ```swift
  /// NodeInstance(outputs: [PortDeclaration("value", .integer)], live: .source(TickerSource(step: 1)))
  /// ```
  public init(inputs: [InputPort] = [], outputs: [PortDeclaration], live: LiveBehavior, cost: NodeCost = .cheap) {
    self.init(inputs: inputs, outputs: outputs, evaluator: LiveOnlyEvaluator(), cost: cost, live: live)
  }
}

/// The evaluator of a live instance made without one: never called in an engine (live nodes
/// run through their `LiveBehavior`); a host evaluating the kind outside an engine gets an error.
struct LiveOnlyEvaluator: NodeEvaluator {
  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    throw NodeError("a live node runs only in an engine that knows live nodes")
  }
}
