extension NodeState {
  /// Why a node holds no outputs: its failure and the node where the failure started.
  public struct Failure: Sendable, Hashable {
    /// The node's own error, or `upstream error from <root>`.
    public var message: String
    /// The node where the failure started (the node's own id when it failed by itself).
    public var root: String

    public init(message: String, root: String) {
      self.message = message
      self.root = root
    }
  }

  /// The failure when the state is `.failed`, else `nil`.
  public var failure: Failure? {
    if case .failed(let message, let root) = self { return Failure(message: message, root: root) }
    return nil
  }

  /// Output `port`'s value when the state is `.value` and the node has that port, else `nil`.
  public func value(of port: String) -> Value? { outputs?[port] }

  /// Output `port`'s table when the state is `.value` and that port holds a table, else `nil`.
  public func table(of port: String) -> Table? {
    if case .table(let table)? = value(of: port) { return table }
    return nil
  }
}
