/// Why a graph (or one of its nodes) cannot be exported to SQL: the node and the reason, e.g.
/// `node 'ticks' (clock): live nodes have no SQL form`. When several nodes have no SQL form,
/// one error names every one of them (``others``), so one run shows them all.
public struct SQLExportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The node that cannot be exported (nil for a problem of the whole request).
  public var node: String?
  public var reason: String
  /// The other nodes that cannot be exported, found in the same pass (in topological order).
  public var others: [SQLExportError] = []

  public init(node: String?, _ reason: String) {
    self.node = node
    self.reason = reason
  }

  /// This error and ``others``, each one line.
  public var all: [SQLExportError] {
    var plain = self
    plain.others = []
    return [plain] + others
  }

  /// One line per node. Names and reasons come from the document and its files, so every
  /// control character (line breaks included) is written as a visible escape: a message is
  /// one line on a terminal.
  public var description: String {
    all.map { error in
      guard let node = error.node else { return error.reason.controlEscaped }
      return "node '\(node.controlEscaped)': \(error.reason.controlEscaped)"
    }.joined(separator: "\n")
  }
}
