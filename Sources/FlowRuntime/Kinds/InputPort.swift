import FlowGraph

/// An input port of a node kind: name, type, and the value it takes while unconnected.
public struct InputPort: Sendable, Hashable {
  public var name: String
  public var type: PortType
  /// The value of the input while no edge feeds it and no param of the same name sets it.
  public var defaultValue: Value

  public init(_ name: String, _ type: PortType, default defaultValue: Value) {
    self.name = name
    self.type = type
    self.defaultValue = defaultValue
  }

  var declaration: PortDeclaration { PortDeclaration(name, type) }
}
