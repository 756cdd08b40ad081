/// Successor lists in compressed form: one array of offsets, one of node indices, the
/// successors of each node in the order its edges were given (a node appears once per edge).
///
/// - Complexity: building is O(*n* + *m*) (a counting sort by source).
package struct SuccessorLists: Sendable {
  private var start: [Int32]
  private var targets: [Int32]

  /// The successor lists of `nodeCount` nodes joined by `edges`, whose endpoints (node indices
  /// in `0..<nodeCount`) `endpoints` gives.
  package init<Edges: Collection>(
    nodeCount: Int, edges: Edges, endpoints: (Edges.Element) -> (source: Int32, target: Int32)
  ) {
    start = [Int32](repeating: 0, count: nodeCount + 1)
    for edge in edges { start[Int(endpoints(edge).source) + 1] += 1 }
    for node in 0..<nodeCount { start[node + 1] += start[node] }
    targets = [Int32](repeating: 0, count: edges.count)
    var cursor = start
    for edge in edges {
      let (source, target) = endpoints(edge)
      targets[Int(cursor[Int(source)])] = target
      cursor[Int(source)] += 1
    }
  }

  /// The number of nodes.
  package var nodeCount: Int { start.count - 1 }

  package subscript(node: Int) -> ArraySlice<Int32> { targets[Int(start[node])..<Int(start[node + 1])] }
}
