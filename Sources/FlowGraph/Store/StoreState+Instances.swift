/// Mutations of a store that holds subgraph instances (Reference.md, "Subgraphs"): an instance is written as one
/// node and kept inlined, so each mutation of an instance or of an edge into one becomes the
/// mutations of its inlined nodes and edges. Every other mutation is the plain one.
extension StoreState {
  mutating func addNode(_ node: FlowNode, subgraphs: inout StoreSubgraphs, log: inout StoreLog)
    throws(GraphValidationError)
  {
    guard let subgraph = subgraphs.library[node.data.kind] else { return try addNode(node, log: &log) }
    try checkInstance(node, subgraphs)
    if nodeSlot(node.id) != nil {
      throw GraphValidationError(
        GraphIssue(
          .duplicateNodeID, "duplicate node id '\(node.id)': the store already has a node with that id",
          nodeIDs: [node.id]))
    }
    _ = subgraph
    let expansion = SubgraphExpander.expansion(of: node, library: subgraphs.library)
    for inner in expansion.nodes { try addNode(inner, log: &log) }
    for edge in expansion.edges { try addEdge(edge, log: &log) }
    subgraphs.instances[node.id] = node
  }

  mutating func removeNode(id: String, subgraphs: inout StoreSubgraphs, log: inout StoreLog)
    throws(GraphValidationError)
  {
    guard let instance = subgraphs.instances[id] else { return try removeNode(id: id, log: &log) }
    let expansion = SubgraphExpander.expansion(of: instance, library: subgraphs.library)
    // The instance node first (its outside edges go with it), then the inlined nodes, last first.
    try removeNode(id: id, log: &log)
    for inner in expansion.nodes.reversed() where inner.id != id { try removeNode(id: inner.id, log: &log) }
    subgraphs.instances[id] = nil
  }

  mutating func updateNode(_ node: FlowNode, subgraphs: inout StoreSubgraphs, log: inout StoreLog)
    throws(GraphValidationError)
  {
    let old = subgraphs.instances[node.id]
    let isInstance = subgraphs.library[node.data.kind] != nil
    guard old != nil || isInstance else { return try updateNode(node, log: &log) }
    guard let old, isInstance else {
      throw GraphValidationError(
        GraphIssue(
          .invalidParameter,
          "node '\(node.id)': an instance cannot become a node of another kind, nor a node an instance (remove it and add a new one)",
          nodeIDs: [node.id], parameter: "kind"))
    }
    try checkInstance(node, subgraphs)
    try reexpand(from: old, to: node, old: subgraphs.library, new: subgraphs.library, log: &log)
    subgraphs.instances[node.id] = node
  }

  mutating func addEdge(_ edge: FlowEdge, subgraphs: StoreSubgraphs, log: inout StoreLog) throws(GraphValidationError) {
    try addEdge(redirected(edge, subgraphs), log: &log)
  }

  mutating func updateEdge(_ edge: FlowEdge, subgraphs: StoreSubgraphs, log: inout StoreLog)
    throws(GraphValidationError)
  {
    try updateEdge(redirected(edge, subgraphs), log: &log)
  }

  /// `edge` as the store holds it: into an instance's port, it targets that port's `input` node.
  func redirected(_ edge: FlowEdge, _ subgraphs: StoreSubgraphs) throws(GraphValidationError) -> FlowEdge {
    guard let instance = subgraphs.instances[edge.targetNodeID], let subgraph = subgraphs.library[instance.data.kind]
    else { return edge }
    let flat = SubgraphExpander.redirected(edge, targetKind: instance.data.kind, library: subgraphs.library)
    if flat.targetNodeID == edge.targetNodeID {
      let names = subgraph.inputs.map(\.name)
      throw GraphValidationError(
        GraphIssue(
          edge.targetHandleID == nil ? .ambiguousHandle : .unknownHandle,
          "edge '\(edge.id)': node '\(instance.id)' (\(subgraph.name)) has no input '\(edge.targetHandleID ?? "")'"
            + " (inputs: \(names.isEmpty ? "none" : names.joined(separator: ", ")))",
          nodeIDs: [instance.id], edgeID: edge.id, handleID: edge.targetHandleID))
    }
    return flat
  }

  /// The instance's params against its definition's inputs.
  func checkInstance(_ node: FlowNode, _ subgraphs: StoreSubgraphs) throws(GraphValidationError) {
    let catalog = SubgraphCatalog(base: self.catalog, library: subgraphs.library)
    if case .invalidParameters(let problems) = catalog.resolve(node.data) {
      throw GraphValidationError(
        issues: problems.map { problem in
          GraphIssue(
            .invalidParameter, "node '\(node.id)' (\(node.data.kind)): param '\(problem.parameter)' \(problem.reason)",
            nodeIDs: [node.id], parameter: problem.parameter)
        })
    }
  }
}
