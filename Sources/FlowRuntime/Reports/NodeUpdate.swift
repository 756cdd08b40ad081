/// One element of `FlowEngine.values(of:)`: a node's state and the revision it is the state of.
///
/// The accessors of `NodeState` are repeated here, so `update.outputs` reads as `state.outputs`.
public struct NodeUpdate: Sendable, Hashable {
  /// The store revision the pass that published this state brought the graph up to.
  public var revision: Int
  /// The node's state as of that revision.
  public var state: NodeState

  public init(revision: Int, state: NodeState) {
    self.revision = revision
    self.state = state
  }

  /// The outputs when the state is `.value`, else `nil`.
  public var outputs: [String: Value]? { state.outputs }
  /// The failure message when the state is `.failed`, else `nil`.
  public var failureMessage: String? { state.failureMessage }
  /// The failure, with the node where it started, when the state is `.failed`.
  public var failure: NodeState.Failure? { state.failure }
  /// Output `port`'s value when the state is `.value` and the node has that port.
  public func value(of port: String) -> Value? { state.value(of: port) }
  /// Output `port`'s table when the state is `.value` and that port holds a table.
  public func table(of port: String) -> Table? { state.table(of: port) }
}

extension NodeUpdate: CustomStringConvertible {
  public var description: String { "r\(revision) \(state)" }
}
