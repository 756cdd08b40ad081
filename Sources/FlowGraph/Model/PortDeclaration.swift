/// One input or output port of a node: its name (the SwiftFlow handle id) and value type.
public struct PortDeclaration: Sendable, Hashable {
  public var name: String
  public var type: PortType

  public init(_ name: String, _ type: PortType) {
    self.name = name
    self.type = type
  }
}
