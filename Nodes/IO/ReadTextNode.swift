import FlowRuntime

/// `readText`: the UTF-8 contents of the file at `path` (relative to the document's folder).
struct ReadTextNode: NodeKind {
  var name: String { "readText" }
  var summary: String { "text = the UTF-8 contents of the file at path" }
  var parameters: [ParameterDeclaration] { [FileParameter.declaration] + FileWatch.declarations }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let file = FileParameter(parameters)
    let evaluator = Evaluator(file: file, limits: parameters.environment.limits)
    return NodeInstance(
      inputs: [], outputs: [PortDeclaration("text", .string)], evaluator: evaluator, cost: .expensive,
      live: try FileWatch.behavior(parameters, evaluator: evaluator, outputCount: 1, file: file))
  }

  struct Evaluator: NodeEvaluator {
    let file: FileParameter
    let limits: RunLimits

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let bytes = try file.read()
      try limits.checkStringBytes(bytes.count, of: "the text of \(file.path)")  // before the copy into a String
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw NodeError("\(file.path) is not UTF-8 text")
      }
      outputs[0] = .string(text)
    }
  }
}

extension ReadTextNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.textOrScalar) }
}
