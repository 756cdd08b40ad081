import Foundation

/// A node as a SwiftFlow document stores it, with a `NodeSpec` as its data.
public struct FlowNode: Sendable, Hashable, Identifiable {
  /// SwiftFlow's editing phase of a node.
  public enum Phase: Sendable, Hashable {
    public enum DraftValidity: String, Sendable, Hashable { case neutral, valid, invalid }
    case normal
    case draft(DraftValidity)
  }

  /// Whether `export()` keeps the node (`transient` nodes are dropped).
  public enum Persistence: String, Sendable, Hashable { case persistent, transient }

  public var id: String
  public var position: CGPoint
  public var size: CGSize
  public var data: NodeSpec
  public var parentID: String?
  public var phase: Phase
  public var persistence: Persistence
  public var isSelected: Bool
  public var isDraggable: Bool
  public var acceptsChildren: Bool
  public var zIndex: Int
  /// The declared handles; `nil` when the document has no `handles` key (they then come from the
  /// node's kind), which is not the same as `[]` (explicitly none).
  public var handles: [HandleDeclaration]?

  public init(id: String, data: NodeSpec, position: CGPoint = .zero, size: CGSize = FlowNode.defaultSize,
              parentID: String? = nil, phase: Phase = .normal, persistence: Persistence = .persistent,
              isSelected: Bool = false, isDraggable: Bool = true, acceptsChildren: Bool = false,
              zIndex: Int = 0, handles: [HandleDeclaration]? = nil) {
    self.id = id
    self.position = position
    self.size = size
    self.data = data
    self.parentID = parentID
    self.phase = phase
    self.persistence = persistence
    self.isSelected = isSelected
    self.isDraggable = isDraggable
    self.acceptsChildren = acceptsChildren
    self.zIndex = zIndex
    self.handles = handles
  }

  /// The size a node gets when a hand-written document leaves it out.
  public static let defaultSize = CGSize(width: 150, height: 60)
}
