import FlowGraph
import FlowRuntime

/// The outputs and errors `flow run` prints, in text or JSON (SPEC §7).
///
/// `package` so that `flow-bench` can measure the writers' linearity (W11).
package struct RunResult {
  /// Node → port → value, for the shown nodes that did not fail.
  var outputs: [String: [String: Value]] = [:]
  /// Every failed node of the graph with its message.
  var errors: [String: String]

  package init(evaluator: GraphEvaluator, nodes: [String]) {
    errors = evaluator.failures
    for id in nodes where errors[id] == nil {
      if let ports = evaluator.outputs(of: id), !ports.isEmpty { outputs[id] = ports }
    }
  }

  /// `<node>.<port> = <value>` lines, sorted by node then port, then `<node> ! <message>` lines.
  package func text() -> String {
    var lines: [String] = []
    for node in outputs.keys.sorted() {
      let ports = outputs[node]!
      for port in ports.keys.sorted() { lines.append("\(node).\(port) = \(ports[port]!)") }
    }
    lines += errors.keys.sorted().map { "\($0) ! \(errors[$0]!)" }
    return lines.map { $0 + "\n" }.joined()
  }

  /// `{"outputs": {node: {port: value}}, "errors": {node: message}}`.
  package func json() -> String {
    // Members are built as arrays (keys are unique): keyed insertion into a `JSONObject` is a
    // linear search per key, quadratic over 100,000 nodes.
    let outputObject = JSONObject(outputs.map { node, ports in
      JSONMember(key: node, value: .object(JSONObject(ports.map { JSONMember(key: $0.key, value: $0.value.jsonValue) })))
    })
    let errorObject = JSONObject(errors.map { JSONMember(key: $0.key, value: .string($0.value)) })
    let root: JSONValue = .object(["outputs": .object(outputObject), "errors": .object(errorObject)])
    return root.serialized() + "\n"
  }
}
