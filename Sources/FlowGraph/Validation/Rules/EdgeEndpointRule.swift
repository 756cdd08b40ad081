/// Every edge joins an existing node's output port to an existing node's input port of a
/// compatible type; a handle-less end refers to the node's only port on that side.
enum EdgeEndpointRule {
  static func check(_ context: inout ValidationContext) {
    context.edges.reserveCapacity(context.document.edges.count)
    for (position, edge) in context.document.edges.enumerated() {
      let source = context.indexByID[edge.sourceNodeID]
      let target = context.indexByID[edge.targetNodeID]
      if source == nil {
        context.report(GraphIssue(.missingNode, "edge '\(edge.id)' starts at node '\(edge.sourceNodeID)', which does not exist",
                                  nodeIDs: [edge.sourceNodeID], edgeID: edge.id, handleID: edge.sourceHandleID))
      }
      if target == nil {
        context.report(GraphIssue(.missingNode, "edge '\(edge.id)' ends at node '\(edge.targetNodeID)', which does not exist",
                                  nodeIDs: [edge.targetNodeID], edgeID: edge.id, handleID: edge.targetHandleID))
      }
      guard let source, let target,
            let sourceSignature = context.signatures[Int(source)],
            let targetSignature = context.signatures[Int(target)] else { continue }
      switch resolve(edge, sourceSignature: sourceSignature, targetSignature: targetSignature) {
      case .success(let ports):
        context.edges.append(ResolvedGraph.Edge(source: source, sourcePort: ports.source, target: target,
                                                targetPort: ports.target, documentIndex: Int32(position)))
      case .failure(let failure):
        for issue in failure.issues { context.report(issue) }
      }
    }
  }

  /// Resolves the ports of one edge between two resolved nodes.
  ///
  /// - Returns: the output port index on the source and the input port index on the target, or
  ///   every issue with the edge (unknown handle, wrong direction, ambiguity, type mismatch).
  static func resolve(_ edge: FlowEdge, sourceSignature: NodeSignature, targetSignature: NodeSignature)
    -> Result<(source: Int32, target: Int32), GraphValidationError>
  {
    var issues: [GraphIssue] = []
    let sourcePort = port(edge, nodeID: edge.sourceNodeID, handle: edge.sourceHandleID, wanted: sourceSignature.outputs,
                          other: sourceSignature.inputs, side: "output", into: &issues)
    let targetPort = port(edge, nodeID: edge.targetNodeID, handle: edge.targetHandleID, wanted: targetSignature.inputs,
                          other: targetSignature.outputs, side: "input", into: &issues)
    guard let sourcePort, let targetPort else { return .failure(GraphValidationError(issues: issues)) }
    let from = sourceSignature.outputs[sourcePort]
    let to = targetSignature.inputs[targetPort]
    guard to.type.accepts(from.type) else {
      return .failure(GraphValidationError(GraphIssue(.typeMismatch,
        "edge '\(edge.id)': \(edge.sourceNodeID).\(from.name) is \(from.type) but \(edge.targetNodeID).\(to.name) takes \(to.type)",
        nodeIDs: [edge.sourceNodeID, edge.targetNodeID], edgeID: edge.id, handleID: to.name)))
    }
    return .success((Int32(sourcePort), Int32(targetPort)))
  }

  private static func port(_ edge: FlowEdge, nodeID: String, handle: String?, wanted: [PortDeclaration],
                           other: [PortDeclaration], side: String, into issues: inout [GraphIssue]) -> Int? {
    let end = side == "output" ? "starts at" : "ends at"
    guard let handle else {
      if wanted.count == 1 { return 0 }
      let reason = wanted.isEmpty ? "which has no \(side) port"
        : "which has \(wanted.count) \(side) ports (\(wanted.map(\.name).joined(separator: ", "))); name the handle"
      issues.append(GraphIssue(wanted.isEmpty ? .unknownHandle : .ambiguousHandle,
        "edge '\(edge.id)' \(end) node '\(nodeID)' without a handle id, \(reason)", nodeIDs: [nodeID], edgeID: edge.id))
      return nil
    }
    if let index = wanted.firstIndex(where: { $0.name == handle }) { return index }
    if other.contains(where: { $0.name == handle }) {
      let direction = side == "output" ? "out of the input" : "into the output"
      issues.append(GraphIssue(.wrongDirection, "edge '\(edge.id)' goes \(direction) '\(handle)' of node '\(nodeID)'",
                               nodeIDs: [nodeID], edgeID: edge.id, handleID: handle))
    } else {
      let known = wanted.isEmpty ? "it has no \(side) ports" : "its \(side) ports are \(wanted.map(\.name).joined(separator: ", "))"
      issues.append(GraphIssue(.unknownHandle, "edge '\(edge.id)' \(end) unknown handle '\(handle)' of node '\(nodeID)' (\(known))",
                               nodeIDs: [nodeID], edgeID: edge.id, handleID: handle))
    }
    return nil
  }
}
