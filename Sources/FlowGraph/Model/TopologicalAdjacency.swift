/// Read access to a graph's adjacency by dense node index, for `TopologicalOrder`.
public protocol TopologicalAdjacency {
  /// Calls `body` with each successor of `node` (once per edge).
  func forEachSuccessor(of node: Int32, _ body: (Int32) -> Void)
  /// Calls `body` with each predecessor of `node` (once per edge).
  func forEachPredecessor(of node: Int32, _ body: (Int32) -> Void)
}
