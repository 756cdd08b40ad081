import FlowRuntime

/// `group`: a container (SwiftFlow's `acceptsChildren: true`, `handles: []`). It has no ports
/// and is never evaluated; its children keep their `parentID`.
struct GroupNode: NodeKind {
  var name: String { NodeSpec.groupKind }
  var summary: String { "a container for other nodes; never evaluated" }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(inputs: [], outputs: [], evaluator: Nothing(), isContainer: true)
  }

  struct Nothing: NodeEvaluator {
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {}
  }
}
