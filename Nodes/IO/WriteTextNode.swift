import FlowRuntime

/// `writeText`: writes its text to `path` atomically, as UTF-8; outputs the absolute path
/// written.
struct WriteTextNode: NodeKind {
  var name: String { "writeText" }
  var summary: String { "writes the text to path (UTF-8), atomically; path = where" }
  var parameters: [ParameterDeclaration] { FileParameter.writerDeclarations }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(
      inputs: [InputPort("text", .string, default: .string(""))], outputs: [PortDeclaration("path", .string)],
      evaluator: Evaluator(file: FileParameter(parameters)), cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let file: FileParameter

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      outputs[0] = .string(try file.write(Array(try inputs.string(0).utf8)))
    }
  }
}

extension WriteTextNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.textOrScalar) }
}
