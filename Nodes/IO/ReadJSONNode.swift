import FlowGraph
import FlowRuntime

/// `readJSON`: the JSON file at `path`; an array of objects becomes a `table` (see
/// `Table(jsonRows:)`), anything else its plain value.
struct ReadJSONNode: NodeKind {
  var name: String { "readJSON" }
  var summary: String { "value = the JSON file at path (an array of objects becomes a table)" }
  var parameters: [ParameterDeclaration] { [FileParameter.declaration] }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(inputs: [], outputs: [PortDeclaration("value", .any)],
                 evaluator: Evaluator(file: FileParameter(parameters)), cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let file: FileParameter

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let bytes = try file.read()
      let json: JSONValue
      do { json = try JSONValue.parse(bytes) } catch {
        throw NodeError("\(file.path):\(error.line):\(error.column): invalid JSON: \(error.message)")
      }
      if case .array(let items) = json, let table = Table(jsonRows: items) {
        outputs[0] = .table(table)
      } else if let value = Value(json: json, as: .any) {
        outputs[0] = value
      } else {
        throw NodeError("\(file.path) holds JSON that is not a value")
      }
    }
  }
}
