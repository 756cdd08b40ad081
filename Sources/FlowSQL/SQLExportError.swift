/// Why a graph (or one of its nodes) cannot be exported to SQL: the node and the reason, e.g.
/// `node 'ticks' (clock): live nodes have no SQL form`.
public struct SQLExportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The node that cannot be exported (nil for a problem of the whole request).
  public var node: String?
  public var reason: String

  public init(node: String?, _ reason: String) {
    self.node = node
    self.reason = reason
  }

  public var description: String {
    guard let node else { return reason }
    return "node '\(node.controlEscaped)': \(reason)"
  }
}
