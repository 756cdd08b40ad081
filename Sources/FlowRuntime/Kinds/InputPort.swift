import FlowGraph

/// An input port of a node kind: name, type, and the value it takes while unconnected.
public struct InputPort: Sendable, Hashable {
  public var name: String
  public var type: PortType
  /// The value of the input while no edge feeds it and no param of the same name sets it.
  public var defaultValue: Value
  /// A lazy input is read only when the node asks for it (`LazyNodeEvaluator.neededInputs`):
  /// what feeds it runs only in passes where the node needs it.
  public var isLazy: Bool

  /// A port; `lazy: true` makes it a lazy input, which only a `LazyNodeEvaluator` may declare.
  public init(_ name: String, _ type: PortType, default defaultValue: Value, lazy: Bool = false) {
    self.name = name
    self.type = type
    self.defaultValue = defaultValue
    isLazy = lazy
  }

  var declaration: PortDeclaration { PortDeclaration(name, type) }
}
