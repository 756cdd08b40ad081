import FlowGraph
import FlowRuntime

/// The outputs and errors `flow run` prints, in text or JSON (SPEC §7).
struct RunResult {
  /// Node → port → value, for the shown nodes that did not fail.
  var outputs: [String: [String: Value]] = [:]
  /// Every failed node of the graph with its message.
  var errors: [String: String]

  init(evaluator: GraphEvaluator, nodes: [String]) {
    errors = evaluator.failures
    for id in nodes where errors[id] == nil {
      if let ports = evaluator.outputs(of: id), !ports.isEmpty { outputs[id] = ports }
    }
  }

  /// `<node>.<port> = <value>` lines, sorted by node then port, then `<node> ! <message>` lines.
  func text() -> String {
    var lines: [String] = []
    for node in outputs.keys.sorted() {
      let ports = outputs[node]!
      for port in ports.keys.sorted() { lines.append("\(node).\(port) = \(ports[port]!)") }
    }
    lines += errors.keys.sorted().map { "\($0) ! \(errors[$0]!)" }
    return lines.map { $0 + "\n" }.joined()
  }

  /// `{"outputs": {node: {port: value}}, "errors": {node: message}}`, plus `"report"` if given.
  func json(report: JSONValue? = nil) -> String {
    var outputObject = JSONObject()
    for (node, ports) in outputs {
      outputObject[node] = .object(JSONObject(ports.map { JSONMember(key: $0.key, value: $0.value.jsonValue) }))
    }
    let errorObject = JSONObject(errors.map { JSONMember(key: $0.key, value: .string($0.value)) })
    var rootObject: JSONObject = ["outputs": .object(outputObject), "errors": .object(errorObject)]
    if let report { rootObject["report"] = report }
    let root: JSONValue = .object(rootObject)
    return root.serialized() + "\n"
  }
}
