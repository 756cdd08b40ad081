import FlowGraph

/// A node spec made concrete: the kind's instance plus the value each input takes while
/// unconnected (a param of the same name, else the port's default).
public struct ConfiguredNode: Sendable {
  public var instance: NodeInstance
  public var unconnectedInputs: [Value]
  /// The ports as the graph layer sees them (shared by all nodes of a static kind).
  public var signature: NodeSignature
  /// Port names in port order (shared arrays for nodes of a static kind).
  var inputNames: [String]
  var outputNames: [String]
  var inputTypes: [PortType]
  /// The kind's name when this is the kind's one shared configuration (a static kind, no
  /// params): the engine then keeps one copy for all such nodes.
  var sharedKey: String?

  init(instance: NodeInstance, unconnectedInputs: [Value], signature: NodeSignature,
       inputNames: [String]? = nil, outputNames: [String]? = nil, inputTypes: [PortType]? = nil, sharedKey: String? = nil) {
    self.sharedKey = sharedKey
    self.instance = instance
    self.unconnectedInputs = unconnectedInputs
    self.signature = signature
    self.inputNames = inputNames ?? signature.inputs.map(\.name)
    self.outputNames = outputNames ?? signature.outputs.map(\.name)
    self.inputTypes = inputTypes ?? signature.inputs.map(\.type)
  }
}
