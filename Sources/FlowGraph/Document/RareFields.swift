/// Immutable boxes for the fields a document value rarely sets (an edge's label, a node's
/// handles, …), so that values which leave them at their defaults — nearly all of a large
/// document — hold one optional reference instead of the fields themselves (`FlowEdge` 88
/// bytes instead of 120, `FlowNode` 88 instead of 144).
///
/// The owner keeps its box `nil` exactly while every field in it has its default, and boxes
/// compare and hash by their fields, so the synthesized equality and hashing of the owner stay
/// those of its fields. A change makes a new box (copy on write by replacement); boxes are never
/// mutated, hence `Sendable`.
final class EdgeDetailsBox: Sendable, Hashable {
  let fields: EdgeDetails
  init(_ fields: EdgeDetails) { self.fields = fields }
  static func == (lhs: EdgeDetailsBox, rhs: EdgeDetailsBox) -> Bool { lhs === rhs || lhs.fields == rhs.fields }
  func hash(into hasher: inout Hasher) { hasher.combine(fields) }
  /// A box of `fields`, or `nil` when they are the defaults.
  static func boxing(_ fields: EdgeDetails) -> EdgeDetailsBox? {
    fields == EdgeDetails() ? nil : EdgeDetailsBox(fields)
  }
}

/// `FlowNode`'s box (see `EdgeDetailsBox`).
final class NodeDetailsBox: Sendable, Hashable {
  let fields: NodeDetails
  init(_ fields: NodeDetails) { self.fields = fields }
  static func == (lhs: NodeDetailsBox, rhs: NodeDetailsBox) -> Bool { lhs === rhs || lhs.fields == rhs.fields }
  func hash(into hasher: inout Hasher) { hasher.combine(fields) }
  /// A box of `fields`, or `nil` when they are the defaults.
  static func boxing(_ fields: NodeDetails) -> NodeDetailsBox? {
    fields == NodeDetails() ? nil : NodeDetailsBox(fields)
  }
}

/// `NodeSpec`'s box (see `EdgeDetailsBox`).
final class SpecDetailsBox: Sendable, Hashable {
  let fields: SpecDetails
  init(_ fields: SpecDetails) { self.fields = fields }
  static func == (lhs: SpecDetailsBox, rhs: SpecDetailsBox) -> Bool { lhs === rhs || lhs.fields == rhs.fields }
  func hash(into hasher: inout Hasher) { hasher.combine(fields) }
  /// A box of `fields`, or `nil` when they are the defaults.
  static func boxing(_ fields: SpecDetails) -> SpecDetailsBox? {
    fields == SpecDetails() ? nil : SpecDetailsBox(fields)
  }
}

/// The fields most edges leave at their defaults.
struct EdgeDetails: Sendable, Hashable {
  var parentID: String?
  var label: String?
  var pathType: FlowEdge.PathType = .bezier
  var isSelected = false
  var shape: ObjectShape?
}

/// The fields most nodes leave at their defaults.
struct NodeDetails: Sendable, Hashable {
  var parentID: String?
  var phase: FlowNode.Phase = .normal
  var persistence: FlowNode.Persistence = .persistent
  var isSelected = false
  var isDraggable = true
  var acceptsChildren = false
  var zIndex = 0
  var handles: [HandleDeclaration]?
  var shape: ObjectShape?
}

/// The fields most node specs leave at their defaults.
struct SpecDetails: Sendable, Hashable {
  var label: String?
  var extra = JSONObject()
}
