import FlowRuntime

/// `readText`: the UTF-8 contents of the file at `path` (relative to the document's folder).
struct ReadTextNode: NodeKind {
  var name: String { "readText" }
  var summary: String { "text = the UTF-8 contents of the file at path" }
  var parameters: [ParameterDeclaration] { [FileParameter.declaration] }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(inputs: [], outputs: [PortDeclaration("text", .string)],
                 evaluator: Evaluator(file: FileParameter(parameters)), cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let file: FileParameter

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let bytes = try file.read()
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw NodeError("\(file.path) is not UTF-8 text")
      }
      outputs[0] = .string(text)
    }
  }
}
