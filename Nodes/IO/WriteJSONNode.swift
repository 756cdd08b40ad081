import FlowRuntime

/// `writeJSON`: writes its value to `path` atomically as JSON (a table as an array of row
/// objects, columns in order); outputs the absolute path written. JSON Lines (`lines`, or a
/// path ending in `.jsonl` or `.ndjson`): a table's rows (or a list's items) one compact value
/// per line.
struct WriteJSONNode: NodeKind {
  var name: String { "writeJSON" }
  var summary: String { "writes the value to path as JSON (a table as row objects), atomically" }
  var parameters: [ParameterDeclaration] {
    FileParameter.writerDeclarations + [
      ParameterDeclaration("pretty", .bool, default: .bool(true), summary: "indented, one member per line"),
      ParameterDeclaration(
        "lines", .bool, default: nil,
        summary: "JSON Lines: one row per line (default: when the path ends in .jsonl or .ndjson)")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let file = FileParameter(parameters)
    return NodeInstance(
      inputs: [InputPort("value", .any, default: .null)], outputs: [PortDeclaration("path", .string)],
      evaluator: Evaluator(
        file: file, pretty: parameters.bool("pretty") ?? true,
        lines: parameters.bool("lines") ?? file.isJSONLines,
        workers: parameters.environment.workers),
      cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let file: FileParameter
    let pretty: Bool
    let lines: Bool
    /// The run's threads (`EvaluationEnvironment.workers`).
    let workers: Int

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      if case .table(let table) = inputs[0] {
        // Large tables are formatted in morsels on the workers (see `MorselWriter`).
        outputs[0] = .string(
          try file.write { emit in
            if lines {
              try MorselWriter.jsonLines(table, morsels: TableMorsels(workers: workers), emit)
            } else {
              try MorselWriter.json(table, pretty: pretty, morsels: TableMorsels(workers: workers), emit)
            }
          })
        return
      }
      var bytes: [UInt8] = []
      if lines, case .array(let items) = inputs[0].jsonValue {
        for item in items {
          bytes += item.serializedBytes(options: [])
          bytes.append(UInt8(ascii: "\n"))
        }
      } else {
        bytes = inputs[0].jsonValue.serializedBytes(options: pretty && !lines ? [.prettyPrinted] : [])
        bytes.append(UInt8(ascii: "\n"))
      }
      outputs[0] = .string(try file.write(bytes))
    }
  }
}

extension WriteJSONNode: SQLRelationalKind {
  var sqlForm: SQLForm { .write(.json) }
}
