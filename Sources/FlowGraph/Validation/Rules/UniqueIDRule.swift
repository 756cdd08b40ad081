/// Node ids and edge ids are each unique within a document.
///
/// - Complexity: O(*n* + *m*) expected: each id is hashed once (`IDIndex`).
enum UniqueIDRule {
  static func check(_ context: inout ValidationContext) {
    // Only the ids are read (a whole `FlowNode` copy would retain every field). Issues go
    // straight to `context.report`, which keeps the first ones and counts the rest.
    let nodes = context.document.nodes
    var nodeTable = IDIndex(capacity: nodes.count)
    nodeTable.insertAll(count: nodes.count, id: { nodes[$0].id }, idAt: { nodes[Int($0)].id }) { index, _ in
      let id = nodes[index].id
      context.report(GraphIssue(.duplicateNodeID, "duplicate node id '\(id)' (nodes[\(index)])", nodeIDs: [id]))
    }
    context.nodeTable = nodeTable
    // Edge ids by position (kept for the store, whose edge slots are the positions).
    let edges = context.document.edges
    var edgeTable = IDIndex(capacity: edges.count)
    edgeTable.insertAll(count: edges.count, id: { edges[$0].id }, idAt: { edges[Int($0)].id }) { index, _ in
      let id = edges[index].id
      context.report(GraphIssue(.duplicateEdgeID, "duplicate edge id '\(id)' (edges[\(index)])", edgeID: id))
    }
    context.edgeTable = edgeTable
  }
}
