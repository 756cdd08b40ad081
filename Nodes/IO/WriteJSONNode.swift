import FlowRuntime

/// `writeJSON`: writes its value to `path` atomically as JSON (a table as an array of row
/// objects, columns in order); outputs the absolute path written.
struct WriteJSONNode: NodeKind {
  var name: String { "writeJSON" }
  var summary: String { "writes the value to path as JSON (a table as row objects), atomically" }
  var parameters: [ParameterDeclaration] {
    FileParameter.writerDeclarations + [ParameterDeclaration("pretty", .bool, default: .bool(true), summary: "indented, one member per line")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(inputs: [InputPort("value", .any, default: .null)], outputs: [PortDeclaration("path", .string)],
                 evaluator: Evaluator(file: FileParameter(parameters), pretty: parameters.bool("pretty") ?? true),
                 cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let file: FileParameter
    let pretty: Bool

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      if case .table(let table) = inputs[0] {
        // Large tables are formatted in morsels on the workers (see `MorselWriter`).
        outputs[0] = .string(try file.write { emit in try MorselWriter.json(table, pretty: pretty, morsels: .standard, emit) })
        return
      }
      var bytes = inputs[0].jsonValue.serializedBytes(options: pretty ? [.prettyPrinted] : [])
      bytes.append(UInt8(ascii: "\n"))
      outputs[0] = .string(try file.write(bytes))
    }
  }
}
