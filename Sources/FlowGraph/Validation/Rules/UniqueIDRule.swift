/// Node ids and edge ids are each unique within a document.
enum UniqueIDRule {
  static func check(_ context: inout ValidationContext) {
    context.indexByID.reserveCapacity(context.document.nodes.count)
    for (index, node) in context.document.nodes.enumerated() {
      if context.indexByID[node.id] == nil {
        context.indexByID[node.id] = Int32(index)
      } else {
        context.report(GraphIssue(.duplicateNodeID, "duplicate node id '\(node.id)' (nodes[\(index)])", nodeIDs: [node.id]))
      }
    }
    // Edge ids by position (kept for the store, whose edge slots are the positions).
    context.edgeIndexByID.reserveCapacity(context.document.edges.count)
    for (index, edge) in context.document.edges.enumerated() {
      if let first = context.edgeIndexByID.updateValue(Int32(index), forKey: edge.id) {
        context.edgeIndexByID[edge.id] = first
        context.report(GraphIssue(.duplicateEdgeID, "duplicate edge id '\(edge.id)' (edges[\(index)])", edgeID: edge.id))
      }
    }
  }
}
