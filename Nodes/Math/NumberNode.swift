import FlowRuntime

/// `number`: a constant, set by its `value` param; an integer stays an integer.
struct NumberNode: NodeKind {
  /// Pure: its instance holds only what its params set.
  var sharesConfiguration: Bool { true }
  var name: String { "number" }
  var summary: String { "a constant number (param value)" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("value", .number, default: .number(0), summary: "the number")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    // An integer is output as that integer, digit for digit (SPEC: integers are exact); what
    // arithmetic kinds do with it is unchanged (they read numbers, and `integer` feeds `number`).
    let value: Value =
      if case .integer(let whole)? = parameters.json("value") { .integer(whole) } else {
        parameters["value"] ?? .number(0)
      }
    return NodeInstance(inputs: [], outputs: [PortDeclaration("value", .number)], evaluator: Constant(value: value))
  }

  struct Constant: NodeEvaluator {
    let value: Value

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = value }
  }
}

/// A constant for `flow export --sql`: a param or `@name` it feeds is written as a literal.
extension NumberNode: SQLConstantKind {}

extension NumberNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.textOrScalar) }
}
