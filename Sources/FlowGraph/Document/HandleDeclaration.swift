/// A SwiftFlow handle: a connection point on a node. FlowRuntime maps input ports to `target`
/// handles and output ports to `source` handles, with ids equal to the port names.
public struct HandleDeclaration: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable { case source, target }
  public enum Position: String, Sendable, Hashable { case center, top, bottom, left, right }

  /// Where a drag may start or end on a handle (SwiftFlow's hit-area shapes).
  public enum HitArea: Sendable, Hashable {
    case disabled
    case point(radius: Double)
    case node
    case nodeBorder(width: Double)
  }

  public var id: String
  public var type: Kind
  public var position: Position
  public var connectionStartArea: HitArea?
  public var connectionTargetArea: HitArea?
  /// The keys the document gave the handle beyond its fields, and their order (see `ObjectShape`).
  public var shape: ObjectShape?

  public init(
    id: String, type: Kind, position: Position,
    connectionStartArea: HitArea? = nil, connectionTargetArea: HitArea? = nil
  ) {
    self.id = id
    self.type = type
    self.position = position
    self.connectionStartArea = connectionStartArea
    self.connectionTargetArea = connectionTargetArea
  }
}
