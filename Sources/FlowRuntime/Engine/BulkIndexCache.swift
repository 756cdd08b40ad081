import FlowGraph

/// Where the nodes of the last definition edit applied in bulk (`SubgraphReplacement`) were
/// found, so that the next one over the same instances and inner nodes (its undo, its redo,
/// the next edit of the same inner param) finds them without a search or an id comparison.
///
/// Invariant: `indices[k]` is the index found for node *k* of `instanceIDs` × `innerIDs`
/// (instance-major), or -1. An index stays right while its node is not removed: a graph's
/// indices never move, an index's id never changes, and a removed index is never reused
/// (`EvaluationGraph`); so a cached index is taken only where its node is not `removed`.
struct BulkIndexCache {
  private var instanceIDs: [String] = []
  private var innerIDs: [String] = []
  private var indices: [Int32] = []

  /// The indices found last time, where `replacement` lists the same instances and inner
  /// nodes (compared by value: O(1) where it shares the arrays, as an undo or redo does).
  func indices(for replacement: SubgraphReplacement) -> [Int32]? {
    guard !indices.isEmpty, indices.count == replacement.nodeChangeCount, replacement.instanceIDs == instanceIDs,
      innerIDs.elementsEqual(replacement.innerNodes.lazy.map(\.id))
    else { return nil }
    return indices
  }

  /// Remembers where `replacement`'s nodes were found.
  mutating func remember(_ replacement: SubgraphReplacement, _ found: [Int32]) {
    instanceIDs = replacement.instanceIDs
    innerIDs = replacement.innerNodes.map(\.id)
    indices = found
  }
}
