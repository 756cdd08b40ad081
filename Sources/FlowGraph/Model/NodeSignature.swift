/// The ports of one node, as its kind and params determine them.
public struct NodeSignature: Sendable, Hashable {
  public var inputs: [PortDeclaration]
  public var outputs: [PortDeclaration]
  /// A container (`group`) has no ports and is never evaluated.
  public var isContainer: Bool
  /// The params an edge may feed ("every param is also an input"): an edge into a handle named
  /// like one of them adds an input of that name (type `any`, checked against the param when
  /// the node runs) after `inputs`. Params named like an input are not listed (the input is).
  public var parameterInputs: [String]

  public init(inputs: [PortDeclaration] = [], outputs: [PortDeclaration] = [], isContainer: Bool = false,
              parameterInputs: [String] = []) {
    self.inputs = inputs
    self.outputs = outputs
    self.isContainer = isContainer
    self.parameterInputs = parameterInputs
  }

  /// The index of the input port named `name`, if any.
  public func inputIndex(named name: String) -> Int? { inputs.firstIndex { $0.name == name } }

  /// The index of the output port named `name`, if any.
  public func outputIndex(named name: String) -> Int? { outputs.firstIndex { $0.name == name } }

  /// This signature with an input for each param of `names` an edge feeds, after its own inputs.
  public func feeding(_ names: [String]) -> NodeSignature {
    var signature = self
    signature.inputs += names.map { PortDeclaration($0, .any) }
    return signature
  }
}
