/// The ports of one node, as its kind and params determine them.
public struct NodeSignature: Sendable, Hashable {
  public var inputs: [PortDeclaration]
  public var outputs: [PortDeclaration]
  /// A container (`group`) has no ports and is never evaluated.
  public var isContainer: Bool

  public init(inputs: [PortDeclaration] = [], outputs: [PortDeclaration] = [], isContainer: Bool = false) {
    self.inputs = inputs
    self.outputs = outputs
    self.isContainer = isContainer
  }

  /// The index of the input port named `name`, if any.
  public func inputIndex(named name: String) -> Int? { inputs.firstIndex { $0.name == name } }

  /// The index of the output port named `name`, if any.
  public func outputIndex(named name: String) -> Int? { outputs.firstIndex { $0.name == name } }
}
