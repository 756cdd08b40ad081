import FlowGraph

/// Applies a new version of a document to a store as the difference between the two: edges
/// gone or changed are removed, nodes gone are removed, changed nodes updated, new nodes and
/// new or changed edges added — in one batch, so it is one revision and one undo step, and
/// the engine reruns only what the changed items affect.
///
/// Removing edges first means no intermediate graph has an edge the final one lacks; adding
/// edges last, each a subset of the new (acyclic) graph's edges, never closes a cycle.
///
/// - Complexity: O(*n* + *m*) dictionary work plus the store's cost of each changed item.
enum ServeDocumentDiff {
  /// Applies `document` to `store`; whether anything changed.
  ///
  /// - Throws: the store's validation error; the store is then unchanged.
  static func apply(_ document: FlowDocument, to store: FlowStore) throws(GraphValidationError) -> Bool {
    var changed = false
    try store.batch { (batch) throws(GraphValidationError) in
      let newNodes = Dictionary(document.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      let newEdges = Dictionary(document.edges.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      var keptEdges = Set<String>()
      for edge in batch.edges {
        if newEdges[edge.id] == edge {
          keptEdges.insert(edge.id)
        } else {
          try batch.removeEdge(id: edge.id)
          changed = true
        }
      }
      var oldNodes: [String: FlowNode] = [:]
      for node in batch.nodes {
        if newNodes[node.id] == nil {
          try batch.removeNode(id: node.id)
          changed = true
        } else {
          oldNodes[node.id] = node
        }
      }
      for node in document.nodes {
        if let old = oldNodes[node.id] {
          if old != node {
            try batch.updateNode(node)
            changed = true
          }
        } else {
          try batch.addNode(node)
          changed = true
        }
      }
      for edge in document.edges where !keptEdges.contains(edge.id) {
        try batch.addEdge(edge)
        changed = true
      }
    }
    return changed
  }
}
