import FlowGraph

/// `subgraph.output`: an inlined `output` node of a definition (Reference.md, "Subgraphs"): it takes the value
/// of its port and has no outputs (the instance node carries the port out).
struct SubgraphOutputKind: NodeKind {
  /// Pure: its instance holds only what its params set.
  var sharesConfiguration: Bool { true }
  var name: String { SubgraphExpander.outputKind }
  var summary: String { "an instance's output, inlined (made by the subgraph expansion)" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("name", .string, required: true, summary: "the port's name")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(
      inputs: [InputPort("value", .any, default: .null)], outputs: [], evaluator: Forward(),
      scalarEvaluation: .forward)
  }
}
