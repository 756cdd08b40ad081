/// The ports of one node, as its kind and params determine them.
public struct NodeSignature: Sendable, Hashable {
  public var inputs: [PortDeclaration]
  public var outputs: [PortDeclaration]
  /// A container (`group`) has no ports and is never evaluated.
  public var isContainer: Bool
  /// The params an edge may feed ("every param is also an input"), each as the input it becomes:
  /// an edge into a handle named like one of them adds that input after the kind's own
  /// (`fed(by:)`); the value is checked against the param again when the node runs. Params named
  /// like a port are not listed (the port is).
  public var parameterInputs: [PortDeclaration]

  public init(
    inputs: [PortDeclaration] = [], outputs: [PortDeclaration] = [], isContainer: Bool = false,
    parameterInputs: [PortDeclaration] = []
  ) {
    self.inputs = inputs
    self.outputs = outputs
    self.isContainer = isContainer
    self.parameterInputs = parameterInputs
  }

  /// The index of the input port named `name`, if any.
  public func inputIndex(named name: String) -> Int? { inputs.firstIndex { $0.name == name } }

  /// The index of the output port named `name`, if any.
  public func outputIndex(named name: String) -> Int? { outputs.firstIndex { $0.name == name } }
}
