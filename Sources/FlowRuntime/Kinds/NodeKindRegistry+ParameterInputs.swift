import FlowGraph

/// Every param is also an input: the configuration of a node some of whose params edges feed.
///
/// Validation gives such a node an input per fed param, after its own inputs
/// (`NodeSignature.parameterInputs`, `ParameterInputRule`). The node's configuration then
/// takes those inputs too: its evaluator (`ParameterInputEvaluator`) merges their values into
/// the params written in the document (the edge wins) and configures the kind again with them
/// when they change, so that the value is checked against the param's type when the node runs.
extension NodeKindRegistry {
  /// The ports of a configured instance, with the params an edge may feed: the kind's declared
  /// params not named like a port (an edge into `number`'s `value` is into its output), each as
  /// an input of the param's type (an `integer` param takes a `number`: a whole one fits when the
  /// node runs). Live kinds, kinds with lazy inputs and the kinds a subgraph expansion makes take
  /// no param from edges.
  static func signature(of instance: NodeInstance, entry: Entry) -> NodeSignature {
    var signature = instance.signature
    guard !entry.parameters.isEmpty, instance.live == nil, !instance.isContainer,
      !entry.kind.name.hasPrefix(SubgraphExpander.reservedPrefix),
      !instance.inputs.contains(where: \.isLazy)
    else { return signature }
    // A handful of params, each compared with the inputs once: linear in the inputs.
    signature.parameterInputs = entry.parameters.compactMap { (parameter) -> PortDeclaration? in
      let name = parameter.name
      guard !instance.inputs.contains(where: { $0.name == name }),
        !instance.outputs.contains(where: { $0.name == name })
      else { return nil }
      return PortDeclaration(name, parameter.type == .integer ? .number : parameter.type)
    }
    return signature
  }

  /// `configured` for a node whose resolved signature is `signature`: itself, or, when edges
  /// feed some of its params (`signature` has inputs after the configuration's own), a
  /// configuration whose evaluator takes those params from its last inputs.
  ///
  /// - Parameter spec: the node's spec, whose params the fed values override.
  func conforming(_ configured: ConfiguredNode, to signature: NodeSignature, spec: NodeSpec) -> ConfiguredNode {
    let own = configured.inputNames.count
    guard signature.inputs.count > own, let kind = kind(named: spec.kind) else { return configured }
    let names = signature.inputs[own...].map(\.name)
    let declarations = names.map { name in
      guard let declaration = kind.parameters.first(where: { $0.name == name }) else {
        preconditionFailure(
          "Internal inconsistency: '\(name)' of node kind '\(spec.kind)' was accepted as a param input")
      }
      return declaration
    }
    let base = configured.instance
    let evaluator = ParameterInputEvaluator(
      registry: self, spec: spec, parameters: declarations,
      ownInputNames: configured.inputNames)
    let instance = NodeInstance(
      inputs: base.inputs + names.map { InputPort($0, .any, default: .null) },
      outputs: base.outputs, evaluator: evaluator, cost: base.cost)
    return ConfiguredNode(
      instance: instance, unconnectedInputs: configured.unconnectedInputs + names.map { _ in .null },
      signature: configured.signature.fed(by: names),
      inputTypes: configured.inputTypes + names.map { _ in .any })
  }

  /// `conforming(_:to:spec:)` for every node of `graph` (by index, as `configured`).
  func conforming(_ configured: [ConfiguredNode], to graph: ResolvedGraph) -> [ConfiguredNode] {
    var result = configured
    let signatures = graph.signatures
    for index in result.indices where signatures[index].inputs.count > result[index].inputNames.count {
      result[index] = conforming(result[index], to: signatures[index], spec: graph.document.nodes[index].data)
    }
    return result
  }
}
