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

  /// Whether node `id` stood only behind lazy inputs no node needed in the last pass (it did
  /// not run and keeps its last value); `false` for an unknown id and in graphs without lazy
  /// inputs.
  public func isNotNeeded(_ id: String) -> Bool {
    guard graph.lazyCount > 0, let node = graph.indexByID[id], Int(node) < lazy.eager.count,
      graph.flags(of: node).isDisjoint(with: .inert)
    else { return false }
    return !isNeededInPass(node) && (!options.demandDriven || demand.counts[Int(node)] > 0)
  }
}
