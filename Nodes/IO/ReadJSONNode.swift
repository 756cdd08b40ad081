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
    [FileParameter.declaration,
     ParameterDeclaration("lines", .bool, default: nil,
                          summary: "JSON Lines: one value per line (default: when the path ends in .jsonl or .ndjson)")]
      + FileWatch.declarations
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let file = FileParameter(parameters)
    let evaluator = Evaluator(file: file, lines: parameters.bool("lines") ?? file.isJSONLines)
    return NodeInstance(inputs: [], outputs: [PortDeclaration("value", .any)], evaluator: evaluator, cost: .expensive,
                        live: try FileWatch.behavior(parameters, evaluator: evaluator, outputCount: 1, file: file))
  }

  struct Evaluator: NodeEvaluator {
    let file: FileParameter
    let lines: Bool

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let bytes = try file.read()
      if lines {
        outputs[0] = try Self.value(ofLines: Self.jsonLines(bytes, path: file.path))
        return
      }
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

    /// The values of the non-blank lines of `bytes` (a line ends at `\n`; a `\r` before it
    /// is whitespace to JSON).
    static func jsonLines(_ bytes: [UInt8], path: String) throws -> [JSONValue] {
      var values: [JSONValue] = []
      var start = 0
      var lineNumber = 0
      while start < bytes.count {
        lineNumber += 1
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        let line = bytes[start..<end]
        start = end + 1
        guard line.contains(where: { !(0x09...0x0D).contains($0) && $0 != 0x20 }) else { continue }
        do { values.append(try JSONValue.parse(Array(line))) } catch {
          throw NodeError("\(path):\(lineNumber):\(error.column): invalid JSON: \(error.message)")
        }
      }
      return values
    }

    /// Objects → a table (`Table(jsonRows:)`); any other mix → a list.
    static func value(ofLines values: [JSONValue]) throws -> Value {
      if !values.isEmpty, let table = Table(jsonRows: values) { return .table(table) }
      guard let value = Value(json: .array(values), as: .any) else { throw NodeError("JSON Lines that are not values") }
      return value
    }
  }
}
