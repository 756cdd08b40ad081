import FlowGraph

/// A node spec made concrete: the kind's instance plus the value each input takes while
/// unconnected (a param of the same name, else the port's default).
///
/// A value type holding one reference: copying a configuration (into a registry's shared
/// entry, a store payload, the array a document's nodes configure into) is one retain, not a
/// copy of a dozen fields.
public struct ConfiguredNode: Sendable {
  /// The fields, immutable and shared by every copy.
  private final class Fields: Sendable {
    let instance: NodeInstance
    let unconnectedInputs: [Value]
    let signature: NodeSignature
    let inputNames: [String]
    let outputNames: [String]
    let inputTypes: [PortType]
    let sharedKey: String?

    init(
      instance: NodeInstance, unconnectedInputs: [Value], signature: NodeSignature, inputNames: [String],
      outputNames: [String], inputTypes: [PortType], sharedKey: String?
    ) {
      self.instance = instance
      self.unconnectedInputs = unconnectedInputs
      self.signature = signature
      self.inputNames = inputNames
      self.outputNames = outputNames
      self.inputTypes = inputTypes
      self.sharedKey = sharedKey
    }
  }

  private var fields: Fields

  /// The kind's instance for this node's params.
  public var instance: NodeInstance { fields.instance }
  /// The value each input takes while unconnected, in port order.
  public var unconnectedInputs: [Value] { fields.unconnectedInputs }
  /// The ports as the graph layer sees them (shared by all nodes of a static kind).
  public var signature: NodeSignature { fields.signature }
  /// Port names in port order (shared arrays for nodes of a static kind).
  var inputNames: [String] { fields.inputNames }
  var outputNames: [String] { fields.outputNames }
  var inputTypes: [PortType] { fields.inputTypes }
  /// The kind's name when this is the kind's one shared configuration (a static kind, no
  /// params): the engine then keeps one copy for all such nodes.
  var sharedKey: String? { fields.sharedKey }

  init(
    instance: NodeInstance, unconnectedInputs: [Value], signature: NodeSignature,
    inputNames: [String]? = nil, outputNames: [String]? = nil, inputTypes: [PortType]? = nil, sharedKey: String? = nil
  ) {
    fields = Fields(
      instance: instance, unconnectedInputs: unconnectedInputs, signature: signature,
      inputNames: inputNames ?? signature.inputs.map(\.name),
      outputNames: outputNames ?? signature.outputs.map(\.name),
      inputTypes: inputTypes ?? signature.inputs.map(\.type), sharedKey: sharedKey)
  }
}
