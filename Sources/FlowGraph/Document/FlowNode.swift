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
  /// The rarely set fields; `nil` while they all have their defaults (see `EdgeDetailsBox`).
  private var details: NodeDetailsBox?

  public init(
    id: String, data: NodeSpec, position: CGPoint = .zero, size: CGSize = FlowNode.defaultSize,
    parentID: String? = nil, phase: Phase = .normal, persistence: Persistence = .persistent,
    isSelected: Bool = false, isDraggable: Bool = true, acceptsChildren: Bool = false,
    zIndex: Int = 0, handles: [HandleDeclaration]? = nil
  ) {
    self.id = id
    self.position = position
    self.size = size
    self.data = data
    details = .boxing(
      NodeDetails(
        parentID: parentID, phase: phase, persistence: persistence, isSelected: isSelected,
        isDraggable: isDraggable, acceptsChildren: acceptsChildren, zIndex: zIndex,
        handles: handles))
  }

  /// A node whose rarely set fields all have their defaults (no box to make or compare), as
  /// the document scanner reads most nodes.
  init(defaultDetailsID id: String, data: NodeSpec, position: CGPoint, size: CGSize) {
    self.id = id
    self.position = position
    self.size = size
    self.data = data
    details = nil
  }

  public var parentID: String? {
    get { details?.fields.parentID }
    set { if details != nil || newValue != nil { update { $0.parentID = newValue } } }
  }

  public var phase: Phase {
    get { details?.fields.phase ?? .normal }
    set { if details != nil || newValue != .normal { update { $0.phase = newValue } } }
  }

  public var persistence: Persistence {
    get { details?.fields.persistence ?? .persistent }
    set { if details != nil || newValue != .persistent { update { $0.persistence = newValue } } }
  }

  public var isSelected: Bool {
    get { details?.fields.isSelected ?? false }
    set { if details != nil || newValue { update { $0.isSelected = newValue } } }
  }

  public var isDraggable: Bool {
    get { details?.fields.isDraggable ?? true }
    set { if details != nil || !newValue { update { $0.isDraggable = newValue } } }
  }

  public var acceptsChildren: Bool {
    get { details?.fields.acceptsChildren ?? false }
    set { if details != nil || newValue { update { $0.acceptsChildren = newValue } } }
  }

  public var zIndex: Int {
    get { details?.fields.zIndex ?? 0 }
    set { if details != nil || newValue != 0 { update { $0.zIndex = newValue } } }
  }

  /// The declared handles; `nil` when the document has no `handles` key (they then come from the
  /// node's kind), which is not the same as `[]` (explicitly none).
  public var handles: [HandleDeclaration]? {
    get { details?.fields.handles }
    set { if details != nil || newValue != nil { update { $0.handles = newValue } } }
  }

  /// Whether this node is `template` stamped into instance `instanceID`: its id is
  /// `instanceID + template.id` and every other field equals `template`'s. Compared in place,
  /// field by field (no node copied, no id made): what a definition edit checks per instance.
  /// The keys the document gave this node beyond its fields, and their order (see `ObjectShape`).
  public var shape: ObjectShape? {
    get { details?.fields.shape }
    set { if details != nil || newValue != nil { update { $0.shape = newValue } } }
  }

  func isStamped(from template: FlowNode, in instanceID: String) -> Bool {
    id.isConcatenation(instanceID, template.id) && position == template.position && size == template.size
      && data == template.data && details == template.details
  }

  private mutating func update(_ change: (inout NodeDetails) -> Void) {
    var fields = details?.fields ?? NodeDetails()
    change(&fields)
    details = .boxing(fields)
  }

  /// The size a node gets when a hand-written document leaves it out.
  public static let defaultSize = CGSize(width: 150, height: 60)
}
