/// Node ids and edge ids are each unique within a document.
enum UniqueIDRule {
  static func check(_ context: inout ValidationContext) {
    context.indexByID.reserveCapacity(context.document.nodes.count)
    // Only the ids are read (a whole `FlowNode` copy would retain every field).
    let nodes = context.document.nodes
    for index in nodes.indices {
      let id = nodes[index].id
      if let first = context.indexByID.updateValue(Int32(index), forKey: id) {
        context.indexByID[id] = first
        context.report(GraphIssue(.duplicateNodeID, "duplicate node id '\(id)' (nodes[\(index)])", nodeIDs: [id]))
      }
    }
    // Edge ids by position (kept for the store, whose edge slots are the positions).
    context.edgeIndexByID.reserveCapacity(context.document.edges.count)
    let edges = context.document.edges
    for index in edges.indices {
      let id = edges[index].id
      if let first = context.edgeIndexByID.updateValue(Int32(index), forKey: id) {
        context.edgeIndexByID[id] = first
        context.report(GraphIssue(.duplicateEdgeID, "duplicate edge id '\(id)' (edges[\(index)])", edgeID: id))
      }
    }
  }
}
