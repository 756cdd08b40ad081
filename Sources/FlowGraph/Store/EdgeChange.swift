/// A change to an edge, in SwiftFlow's `EdgeChange` vocabulary.
public enum EdgeChange: Sendable, Hashable {
  case add(FlowEdge)
  case remove(id: String)
  /// The edge was replaced (its endpoints, label or path type changed).
  case replace(FlowEdge)
  case select(id: String, isSelected: Bool)

  /// The id of the edge concerned.
  public var edgeID: String {
    switch self {
    case .add(let edge), .replace(let edge): edge.id
    case .remove(let id), .select(let id, _): id
    }
  }
}
