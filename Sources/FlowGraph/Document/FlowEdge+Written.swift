import Foundation

extension FlowEdge {
  /// The id a document's edge gets when it has none: `source.port->target.port` (`source->target`
  /// for an end without a handle), so that hand-written documents need no ids (written back in
  /// full, id included).
  public static func generatedID(source: String, sourceHandle: String?, target: String, targetHandle: String?) -> String
  {
    func end(_ node: String, _ handle: String?) -> String { handle.map { "\(node).\($0)" } ?? node }
    return "\(end(source, sourceHandle))->\(end(target, targetHandle))"
  }

  /// An edge written as one string, `"source[.port] -> target[.port]"` (spaces around `->`
  /// optional; the port is what follows an end's last `.`), or `nil` when `text` is not one.
  public init?(written text: String) {
    guard let arrow = text.range(of: "->") else { return nil }
    func end(_ part: Substring) -> (node: String, port: String?)? {
      let trimmed = part.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty else { return nil }
      guard let dot = trimmed.lastIndex(of: "."), dot != trimmed.startIndex,
        trimmed.index(after: dot) != trimmed.endIndex
      else { return (trimmed, nil) }
      return (String(trimmed[..<dot]), String(trimmed[trimmed.index(after: dot)...]))
    }
    guard let source = end(text[..<arrow.lowerBound]), let target = end(text[arrow.upperBound...]) else { return nil }
    self.init(
      id: FlowEdge.generatedID(
        source: source.node, sourceHandle: source.port, target: target.node, targetHandle: target.port),
      sourceNodeID: source.node, sourceHandleID: source.port,
      targetNodeID: target.node, targetHandleID: target.port)
  }
}
