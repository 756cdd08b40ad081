/// What a node holds as of the last completed pass: its outputs, its failure, or why it has
/// neither.
///
/// `GraphEvaluator.state(of:)` and `FlowEngine.state(of:)` read it; `FlowEngine.values(of:)`
/// yields it each time it changes, starting with the current one.
///
/// ```swift
/// switch await engine.state(of: "total") {
/// case .value(let outputs)?: print(outputs["result"] ?? "?")
/// case .failed(let message, let root)?: print("failed (\(root)): \(message)")
/// case .pending?, .notComputed?: print("no value yet")
/// case nil: print("no such node")
/// }
/// ```
public enum NodeState: Sendable, Hashable {
  /// The node's outputs by port name, computed from its current inputs.
  case value([String: Value])
  /// The node failed: `message` is its own error, or `upstream error from <root>` when the
  /// failure started at `root`, an ancestor (`root` is the node's own id when it failed by
  /// itself). A failed node presents no outputs: its previous ones are not current.
  case failed(message: String, root: String)
  /// The node waits for a live source's first emission (it has never had inputs).
  case pending
  /// The node was not computed: it has not run yet, or it was skipped as unnecessary in a
  /// demand-driven pass (`EngineOptions.demandDriven`) after an input changed; it is computed
  /// when it becomes necessary (`observe`).
  case notComputed

  /// The outputs when the state is `.value`, else `nil`.
  public var outputs: [String: Value]? {
    if case .value(let outputs) = self { return outputs }
    return nil
  }

  /// The failure message when the state is `.failed`, else `nil`.
  public var failureMessage: String? {
    if case .failed(let message, _) = self { return message }
    return nil
  }

  /// Which case the state is, without its payload (for comparing states cheaply).
  var kind: Kind {
    switch self {
    case .value: .value
    case .failed: .failed
    case .pending: .pending
    case .notComputed: .notComputed
    }
  }

  enum Kind: UInt8, Sendable {
    case value, failed, pending, notComputed
  }
}
