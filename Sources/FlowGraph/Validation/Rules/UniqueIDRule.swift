/// Node ids and edge ids are each unique within a document.
///
/// - Complexity: O(*n* + *m*) expected: each id is hashed once (`IDIndex`).
enum UniqueIDRule {
  static func check(_ context: inout ValidationContext) {
    // Only the ids are read (a whole `FlowNode` copy would retain every field).
    let nodes = context.document.nodes
    var nodeTable = IDIndex(capacity: nodes.count)
    for index in nodes.indices {
      let id = nodes[index].id
      if nodeTable.insert(id, at: Int32(index), idAt: { nodes[Int($0)].id }) != nil {
        context.report(GraphIssue(.duplicateNodeID, "duplicate node id '\(id)' (nodes[\(index)])", nodeIDs: [id]))
      }
    }
    context.nodeTable = nodeTable
    // Edge ids by position (kept for the store, whose edge slots are the positions).
    let edges = context.document.edges
    var edgeTable = IDIndex(capacity: edges.count)
    for index in edges.indices {
      let id = edges[index].id
      if edgeTable.insert(id, at: Int32(index), idAt: { edges[Int($0)].id }) != nil {
        context.report(GraphIssue(.duplicateEdgeID, "duplicate edge id '\(id)' (edges[\(index)])", edgeID: id))
      }
    }
    context.edgeTable = edgeTable
  }
}
