import FlowGraph

/// `subgraph.input`: an inlined `input` node of a definition (Reference.md, "Subgraphs"). Its input `value` is
/// fed by the edge into the instance's port, or set by the instance's param (the expansion
/// writes it as param `value`), else it takes `default`; its output `value` forwards it.
struct SubgraphInputKind: NodeKind {
  /// Pure: its instance holds only what its params set.
  var sharesConfiguration: Bool { true }
  var name: String { SubgraphExpander.inputKind }
  var summary: String { "an instance's input, inlined (made by the subgraph expansion)" }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration("name", .string, required: true, summary: "the port's name"),
      ParameterDeclaration("type", .string, default: .string("number"), summary: "the port's type"),
      ParameterDeclaration("default", .any, summary: "the value while neither connected nor set"),
      ParameterDeclaration("lazy", .bool, default: .bool(false), summary: "the instance's port is listed as lazy")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    guard let type = PortType(rawValue: parameters.string("type") ?? "number") else {
      throw NodeConfigurationError(parameter: "type", reason: "must name a port type")
    }
    let fallback = parameters.json("default").flatMap { Value(json: $0, as: type) } ?? .null
    let required = parameters.json("default") == nil
    return NodeInstance(
      inputs: [InputPort("value", type, default: fallback)], outputs: [PortDeclaration("value", type)],
      evaluator: required ? RequiredForward(port: parameters.string("name") ?? "") as any NodeEvaluator : Forward(),
      scalarEvaluation: .forward)
  }
}

/// `Forward` for a required input: a missing value (an instance added in a store and not yet
/// connected or set) fails naming the port, instead of failing the node it feeds.
struct RequiredForward: NodeEvaluator {
  let port: String

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    if case .null = inputs[0] { throw NodeError("input '\(port)' is required: connect it or set it") }
    outputs[0] = inputs[0]
  }
}

/// Copies each input to the output of the same position.
struct Forward: NodeEvaluator {
  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    for index in 0..<min(inputs.count, outputs.count) { outputs[index] = inputs[index] }
  }
}
