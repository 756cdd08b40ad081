extension GraphEvaluator {
  /// Makes node `id` evaluate through `wrap(evaluator)`, where `evaluator` is the one its kind
  /// configured from its params: a host's hook by node id, which a kind (configured from params
  /// alone, shared by nodes with the same ones) cannot give. `flow run` wraps the nodes of a
  /// streamed chain this way (`StreamingPlan.install(in:)`).
  ///
  /// The node gets a configuration of its own (nodes with the same params keep theirs) and no
  /// scalar fast path, so every run of it goes through the wrapper; its ports, edges and values
  /// stay, and it runs with the wrapper from its next run on. An edit that configures the node
  /// again (a changed param, a replaced node) gives it its kind's evaluator back. The wrapper
  /// replaces the evaluator whole: for a node with lazy inputs it must itself be a
  /// `LazyNodeEvaluator`, or the node is asked for none of them.
  ///
  /// - Returns: `false`, changing nothing, when no present node has that id.
  @discardableResult
  package mutating func wrapEvaluator(of id: String, _ wrap: (any NodeEvaluator) -> any NodeEvaluator) -> Bool {
    guard let node = graph.indexByID[id], !graph.flags(of: node).contains(.removed) else { return false }
    graph.wrapEvaluator(of: node, wrap)
    return true
  }
}
