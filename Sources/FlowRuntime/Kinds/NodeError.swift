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
  /// Further problems found at the same time (every bad formula of a `derive`, not only the
  /// first), each reported as a problem of its own.
  public var more: [NodeConfigurationError] = []

  public init(parameter: String, reason: String) {
    self.parameter = parameter
    self.reason = reason
  }

  /// The first of `problems` with the others in `more`, or `nil` when there are none.
  public init?(_ problems: [NodeConfigurationError]) {
    guard let first = problems.first else { return nil }
    self = first
    more = Array(problems.dropFirst())
  }

  /// This problem and the others found with it, in order.
  public var all: [NodeConfigurationError] {
    var first = self
    first.more = []
    return [first] + more
  }
}
