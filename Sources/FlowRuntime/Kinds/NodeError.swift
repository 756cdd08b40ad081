/// An error a node reports from `evaluate`, shown as the node's error message.
public struct NodeError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

/// A param value a kind rejects when a node is configured (for example a formula that does not
/// parse). Validation reports it naming the node and the param.
public struct NodeConfigurationError: Error, Hashable, Sendable {
  public var parameter: String
  public var reason: String

  public init(parameter: String, reason: String) {
    self.parameter = parameter
    self.reason = reason
  }
}
