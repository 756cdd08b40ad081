/// Node ids and edge ids are each unique within a document.
///
/// - Complexity: O(*n* + *m*) expected: each id is hashed once (`IDIndex`).
enum UniqueIDRule {
  static func check(_ context: inout ValidationContext) {
    // Only the ids are read (a whole `FlowNode` copy would retain every field). Issues go
    // straight to `context.report`, which keeps the first ones and counts the rest.
    // The ids are compared in a column of their own, 16 bytes a node where the nodes are 88: the
    // table's random reads then mostly hit cache.
    let nodeIDs = context.document.nodes.map(\.id)
    context.nodeIDs = nodeIDs
    var nodeTable = IDIndex(capacity: nodeIDs.count)
    nodeTable.insertAll(count: nodeIDs.count, id: { nodeIDs[$0] }, idAt: { nodeIDs[Int($0)] }) { index, _ in
      let id = nodeIDs[index]
      context.report(GraphIssue(.duplicateNodeID, "duplicate node id '\(id)' (nodes[\(index)])", nodeIDs: [id]))
    }
    context.nodeTable = nodeTable
    // Edge ids: only checked (the store indexes its edge slots itself).
    let edgeIDs = context.document.edges.map(\.id)
    var edgeTable = IDIndex(capacity: edgeIDs.count)
    edgeTable.insertAll(count: edgeIDs.count, id: { edgeIDs[$0] }, idAt: { edgeIDs[Int($0)] }) { index, _ in
      let id = edgeIDs[index]
      context.report(GraphIssue(.duplicateEdgeID, "duplicate edge id '\(id)' (edges[\(index)])", edgeID: id))
    }
  }
}
