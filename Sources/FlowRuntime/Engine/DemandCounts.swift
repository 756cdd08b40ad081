/// Demand (Incremental's *necessary* nodes; `GraphEvaluator+Demand.swift` keeps it): observers
/// by id, a count per node of observers plus edges into necessary nodes, and the *stale* nodes
/// a demand-driven pass skipped.
///
/// Invariants (`_checkInvariants()`): no negative count; a node waiting to be computed
/// (`refreshing`) is not stale (`GraphEvaluator._checkInvariants()` checks it is dirty).
struct DemandCounts: Sendable {
  /// Observers on node `n` plus its necessary successor edges; necessary iff positive.
  var counts: [Int32]
  /// `stale[n]`: node `n` was skipped while unnecessary; it reruns when it becomes necessary.
  var stale: [Bool]
  /// Stale nodes that became necessary and wait for the next pass to compute them (each dirty).
  var refreshing: Set<Int32> = []
  /// Observers by node id (an id may be observed before its node exists).
  var observers: [String: Int32] = [:]
  /// Bumped by every `observe`/`unobserve` (the lazy pass's roots follow the observers).
  var observerVersion: UInt64 = 0

  init(nodeCount: Int) {
    counts = [Int32](repeating: 0, count: nodeCount)
    stale = [Bool](repeating: false, count: nodeCount)
  }

  /// Whether `node` is necessary (observed, or an ancestor of an observed node).
  @inline(__always)
  func isNecessary(_ node: Int32) -> Bool { counts[Int(node)] > 0 }

  /// Room for node `id`, appended to the graph: necessary if it is observed already.
  mutating func appendNode(id: String) {
    counts.append(observers[id] ?? 0)
    stale.append(false)
  }

  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    precondition(counts.count == stale.count, "Internal inconsistency: demand arrays differ in length")
    precondition(counts.allSatisfy { $0 >= 0 }, "Internal inconsistency: a negative demand count")
    precondition(
      refreshing.allSatisfy { !stale[Int($0)] },
      "Internal inconsistency: a node waiting to be computed is stale")
    #endif
  }
}
