import FlowGraph

// Observers and demand (Incremental's *necessary* nodes).
//
// `demand.counts[n]` = demand.observers on `n` + edges from `n` into necessary nodes. A node is
// necessary iff its count is positive. A count going 0 → 1 adds one to each predecessor's,
// 1 → 0 takes one away: both walk an explicit stack, never recursion, and touch only the
// nodes whose necessity changes (O(change), no whole-graph walk). Every edge connected or
// disconnected through `connectTracked`/`disconnectTracked` keeps the counts.
//
// With `EngineOptions.demandDriven` a pass skips unnecessary nodes and marks them *stale*;
// a stale node becoming necessary is marked dirty, so it reruns then. Counts are kept whether
// or not passes are demand-driven: `onDemand` live nodes follow them either way.

extension GraphEvaluator {
  /// Observes node `id` (which may not exist yet): it and its ancestors become necessary.
  ///
  /// - Complexity: O(nodes whose necessity changes + their edges).
  public mutating func observe(_ id: String) {
    demand.observerVersion &+= 1
    demand.observers[id, default: 0] += 1
    if let node = graph.indexByID[id] { addDemand(node) }
  }

  /// Observes each id of `ids`, as `observe(_:)` one by one would.
  ///
  /// A batch reaching a large part of the graph (a host observing every sink) is counted in one
  /// sweep over the nodes in reverse topological order, whose memory accesses are sequential
  /// and independent, instead of one walk per id through the ancestors in random order.
  ///
  /// - Complexity: O(change) for a small batch; O(*n* + edges of the newly necessary nodes)
  ///   for a large one.
  public mutating func observe(_ ids: [String]) {
    demand.observerVersion &+= 1
    var starts: [Int32] = []
    for id in ids {
      demand.observers[id, default: 0] += 1
      if let node = graph.indexByID[id] { starts.append(node) }
    }
    // Live nodes keep the walk's order of `live.touched` (their sources start in that order).
    guard starts.count >= 64, starts.count &* 64 >= graph.nodeCount, live.nodes.isEmpty else {
      for node in starts { addDemand(node) }
      return
    }
    addDemandSweeping(starts)
  }

  /// `addDemand` of each node of `starts`, in one sweep against the topological order.
  ///
  /// A node's demand is final once every successor is swept, so one pass from the last label
  /// to the first adds each node's new demand and, where it goes from 0 to positive, one to
  /// each predecessor, exactly as the walks would.
  mutating func addDemandSweeping(_ starts: [Int32]) {
    var added = [Int32](repeating: 0, count: graph.nodeCount)
    for node in starts { added[Int(node)] += 1 }
    let nodeAt = graph.order.nodeAt
    for label in nodeAt.indices.reversed() {
      let node = nodeAt[label]
      guard node != TopologicalOrder.hole else { continue }
      let index = Int(node)
      let delta = added[index]
      guard delta > 0 else { continue }
      let before = demand.counts[index]
      demand.counts[index] = before + delta
      guard before == 0 else { continue }
      if demand.stale[index] {
        demand.stale[index] = false
        demand.refreshing.insert(node)
        markDirty(node)
      }
      graph.forEachPredecessor(of: node) { added[Int($0)] += 1 }
    }
  }

  /// Takes back one `observe(id)`; does nothing if `id` is not observed.
  public mutating func unobserve(_ id: String) {
    guard let count = demand.observers[id], count > 0 else { return }
    demand.observerVersion &+= 1
    demand.observers[id] = count == 1 ? nil : count - 1
    if let node = graph.indexByID[id] { removeDemand(node) }
  }

  /// Whether node `id` is necessary: observed, or an ancestor of an observed node.
  public func isNecessary(_ id: String) -> Bool { graph.indexByID[id].map { demand.counts[Int($0)] > 0 } ?? false }

  /// After a pass: the stale nodes it computed are no longer waiting (a stopped pass leaves
  /// the ones it did not reach dirty, and waiting).
  mutating func settleRefreshing() {
    guard !demand.refreshing.isEmpty else { return }
    demand.refreshing = demand.refreshing.filter { dirtySet.marks[Int($0)] }
  }

  /// Whether a pass computes `node`: every node unless passes are demand-driven.
  @inline(__always)
  func isComputed(_ node: Int32) -> Bool { !options.demandDriven || demand.counts[Int(node)] > 0 }

  mutating func addDemand(_ start: Int32) {
    var stack: [Int32] = [start]
    while let node = stack.popLast() {
      let index = Int(node)
      demand.counts[index] += 1
      guard demand.counts[index] == 1 else { continue }
      if demand.stale[index] {
        demand.stale[index] = false
        demand.refreshing.insert(node)
        markDirty(node)
      }
      if graph.record(node).flags & EvaluationGraph.Flags.live.rawValue != 0 { live.touched.append(node) }
      graph.forEachPredecessor(of: node) { stack.append($0) }
    }
  }

  mutating func removeDemand(_ start: Int32) {
    var stack: [Int32] = [start]
    while let node = stack.popLast() {
      let index = Int(node)
      demand.counts[index] -= 1
      guard demand.counts[index] == 0 else { continue }
      if graph.record(node).flags & EvaluationGraph.Flags.live.rawValue != 0 { live.touched.append(node) }
      graph.forEachPredecessor(of: node) { stack.append($0) }
    }
  }

  /// `graph.connect`, keeping demand counts.
  mutating func connectTracked(source: Int32, port sourcePort: Int32, target: Int32, port targetPort: Int32) {
    graph.connect(source: source, port: sourcePort, target: target, port: targetPort)
    if demand.counts[Int(target)] > 0 { addDemand(source) }
  }

  /// `graph.disconnect`, keeping demand counts.
  mutating func disconnectTracked(target: Int32, port: Int32) {
    let source = graph.sourceNode(of: target, input: port)
    graph.disconnect(target: target, port: port)
    if source >= 0 && demand.counts[Int(target)] > 0 { removeDemand(source) }
  }
}
