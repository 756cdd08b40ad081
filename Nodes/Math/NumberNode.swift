import FlowRuntime

/// `number`: a constant, set by its `value` param.
struct NumberNode: NodeKind {
  let name = "number"
  let summary = "a constant number (param value)"
  let parameters = [ParameterDeclaration("value", .number, default: .number(0), summary: "the number")]

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(inputs: [], outputs: [PortDeclaration("value", .number)],
                 evaluator: Constant(value: parameters["value"] ?? .number(0)))
  }

  struct Constant: NodeEvaluator {
    let value: Value

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = value }
  }
}
