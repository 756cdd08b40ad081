import Foundation

/// A change to a node, in SwiftFlow's `NodeChange` vocabulary.
public enum NodeChange: Sendable, Hashable {
  case add(FlowNode)
  case remove(id: String)
  /// The node was replaced: its data (kind, params), handles or several fields changed.
  case replace(FlowNode)
  case position(id: String, position: CGPoint)
  case dimensions(id: String, size: CGSize)
  case select(id: String, isSelected: Bool)

  /// The id of the node concerned.
  public var nodeID: String {
    switch self {
    case .add(let node), .replace(let node): node.id
    case .remove(let id), .position(let id, _), .dimensions(let id, _), .select(let id, _): id
    }
  }
}
