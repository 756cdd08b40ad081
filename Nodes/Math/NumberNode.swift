import FlowRuntime

/// `number`: a constant, set by its `value` param.
struct NumberNode: NodeKind {
  /// Pure: its instance holds only what its params set.
  var sharesConfiguration: Bool { true }
  var name: String { "number" }
  var summary: String { "a constant number (param value)" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("value", .number, default: .number(0), summary: "the number")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(inputs: [], outputs: [PortDeclaration("value", .number)],
                 evaluator: Constant(value: parameters["value"] ?? .number(0)))
  }

  struct Constant: NodeEvaluator {
    let value: Value

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = value }
  }
}
