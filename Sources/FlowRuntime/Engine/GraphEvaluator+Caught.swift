import FlowGraph

extension GraphEvaluator {
  /// The failed nodes whose failure reaches a node of `ids` through failed nodes, with their
  /// messages: `failures` without the failures a lazy node caught (`fallback`) or left behind
  /// an input it no longer needs. Without lazy inputs every failure reaches its descendants, so
  /// this is `failures` itself.
  ///
  /// - Complexity: O(*f* + their edges) for *f* failed nodes, beyond `failures`.
  package func uncaughtFailures(reaching ids: [String]) -> [String: String] {
    let all = failures
    guard graph.lazyCount > 0, !all.isEmpty else { return all }
    var stack = ids.compactMap { graph.indexByID[$0] }.filter { graph.record($0).failure >= 0 }
    var seen = Set(stack)
    while let node = stack.popLast() {
      graph.forEachPredecessor(of: node) { source in
        if graph.record(source).failure >= 0 && seen.insert(source).inserted { stack.append(source) }
      }
    }
    return all.filter { id, _ in graph.indexByID[id].map(seen.contains) ?? false }
  }
}
