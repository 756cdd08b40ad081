/// What makes a node live: persistent state that survives passes and edits elsewhere.
///
/// A kind declares it in its `NodeInstance` (`instance.live`). Two shapes share one model:
/// - `stateful`: the state advances in passes (`counter`, `accumulate`, `previous`); the engine
///   hands the evaluator its committed state and stages the new one until the pass completes.
/// - `source`: the node emits outputs on its own from a task the engine owns (`clock`, `lines`,
///   watched files); each emission is a pass of its own.
public struct LiveBehavior: Sendable {
  /// The two shapes of live node.
  public enum Shape: Sendable {
    case stateful(any StatefulNodeEvaluator)
    case source(any LiveSource)
  }

  public var shape: Shape
  /// The kind's default policy (the node param `policy` overrides it).
  public var policy: LivePolicy

  public init(_ shape: Shape, policy: LivePolicy = .persistent) {
    self.shape = shape
    self.policy = policy
  }

  /// A stateful node whose state advances in passes.
  public static func stateful(_ evaluator: any StatefulNodeEvaluator, policy: LivePolicy = .persistent) -> LiveBehavior
  {
    LiveBehavior(.stateful(evaluator), policy: policy)
  }

  /// A source that emits from a task the engine owns.
  public static func source(_ source: any LiveSource, policy: LivePolicy = .persistent) -> LiveBehavior {
    LiveBehavior(.source(source), policy: policy)
  }

  /// The state of a fresh node.
  var initialState: Value {
    switch shape {
    case .stateful(let evaluator): evaluator.initialState
    case .source(let source): source.initialState
    }
  }

  /// Reads saved state (as JSON made a `Value`).
  func restore(_ saved: Value) throws(NodeError) -> Value {
    switch shape {
    case .stateful(let evaluator): try evaluator.restore(saved)
    case .source(let source): try source.restore(saved)
    }
  }

  var isSource: Bool {
    if case .source = shape { return true }
    return false
  }
}
