import FlowGraph

/// The kind a cached node becomes for one run: no inputs, its original output ports, and the
/// values the cache kept for it. Only `RunCachePlan` makes nodes of it (the name is reserved:
/// no document can name it, it lives only in the run's own registry).
struct CachedValuesKind: NodeKind {
  static let kindName = "flow.cached"
  /// Node id → its ports and kept values, in port order.
  let entries: [String: (outputs: [PortDeclaration], values: [Value])]

  var name: String { Self.kindName }
  var summary: String { "outputs a node's values kept by the run cache" }
  var parameters: [ParameterDeclaration] { [ParameterDeclaration("node", .string, required: true)] }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let entry = parameters.string("node").flatMap { entries[$0] } ?? ([], [])
    return NodeInstance(inputs: [], outputs: entry.outputs, evaluator: Evaluator(values: entry.values))
  }

  struct Evaluator: NodeEvaluator {
    let values: [Value]

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      for (port, value) in values.enumerated() { outputs[port] = value }
    }
  }
}
