import FlowRuntime

/// `text`: a constant string, set by its `value` param.
struct TextNode: NodeKind {
  /// Pure: its instance holds only what its params set.
  var sharesConfiguration: Bool { true }
  var name: String { "text" }
  var summary: String { "a constant string (param value)" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("value", .string, default: .string(""), summary: "the text")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(
      inputs: [], outputs: [PortDeclaration("value", .string)],
      evaluator: NumberNode.Constant(value: parameters["value"] ?? .string("")))
  }
}

/// A constant for `flow export --sql`: a param or `@name` it feeds is written as a literal.
extension TextNode: SQLConstantKind {}

extension TextNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.textOrScalar) }
}
