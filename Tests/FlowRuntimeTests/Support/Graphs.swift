import FlowGraph
import FlowNodes
import FlowRuntime

/// Terse construction of calculator graphs for runtime tests.
struct Graphs {
  var document = FlowDocument()

  mutating func number(_ id: String, _ value: Double) {
    document.nodes.append(FlowNode(id: id, data: NodeSpec(kind: "number", params: ["value": .number(value)])))
  }

  mutating func node(_ id: String, _ kind: String, _ params: JSONObject = [:]) {
    document.nodes.append(FlowNode(id: id, data: NodeSpec(kind: kind, params: params)))
  }

  /// `source.port → target.port`; ports default to the node's only output / the given input.
  mutating func edge(_ source: String, _ sourcePort: String? = nil, to target: String, _ targetPort: String) {
    document.edges.append(
      FlowEdge(
        id: "e\(document.edges.count)", sourceNodeID: source, sourceHandleID: sourcePort,
        targetNodeID: target, targetHandleID: targetPort))
  }

  func evaluator(options: EngineOptions = EngineOptions()) throws -> GraphEvaluator {
    let registry = NodeKindRegistry.standard
    return GraphEvaluator(
      try DocumentValidator.validate(document, catalog: registry), registry: registry, options: options)
  }
}
