import FlowGraph
import FlowRuntime

/// `readJSON`: the JSON file at `path`; an array of objects becomes a `table` (see
/// `Table(jsonRows:)`), anything else its plain value. JSON Lines (`lines`, or a path ending in
/// `.jsonl` or `.ndjson`): one value per line, blank lines skipped; objects become a table,
/// other values a list.
struct ReadJSONNode: NodeKind {
  var name: String { "readJSON" }
  var summary: String { "value = the JSON file at path (an array of objects becomes a table)" }
  var parameters: [ParameterDeclaration] {
    [
      FileParameter.declaration,
      ParameterDeclaration(
        "lines", .bool, default: nil,
        summary: "JSON Lines: one value per line (default: when the path ends in .jsonl or .ndjson)")
    ]
      + FileWatch.declarations
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let file = FileParameter(parameters)
    let evaluator = Evaluator(
      file: file, lines: parameters.bool("lines") ?? file.isJSONLines,
      limits: parameters.environment.limits)
    return NodeInstance(
      inputs: [], outputs: [PortDeclaration("value", .any)], evaluator: evaluator, cost: .expensive,
      live: try FileWatch.behavior(parameters, evaluator: evaluator, outputCount: 1, file: file))
  }

  struct Evaluator: NodeEvaluator {
    let file: FileParameter
    let lines: Bool
    let limits: RunLimits

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let bytes = try file.read()
      // The values a block at a time, the memory limit checked between blocks.
      let reader = JSONBlockReader(limits: limits, path: file.path)
      if lines {
        outputs[0] = try Self.value(ofLines: reader.lines(bytes))
        return
      }
      let json = try reader.value(bytes)
      if case .array(let items) = json, let table = Table(jsonRows: items) {
        outputs[0] = .table(table)
      } else if let value = Value(json: json, as: .any) {
        outputs[0] = value
      } else {
        throw NodeError("\(file.path) holds JSON that is not a value")
      }
    }

    /// Objects → a table (`Table(jsonRows:)`); any other mix → a list.
    static func value(ofLines values: [JSONValue]) throws -> Value {
      if !values.isEmpty, let table = Table(jsonRows: values) { return .table(table) }
      guard let value = Value(json: .array(values), as: .any) else { throw NodeError("JSON Lines that are not values") }
      return value
    }
  }
}

extension ReadJSONNode: SQLRelationalKind {
  var sqlForm: SQLForm { .read(.json) }
}
