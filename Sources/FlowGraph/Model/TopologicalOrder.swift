/// A topological order of a DAG kept up to date under edge insertions (Pearce–Kelly).
///
/// `position[v]` is a permutation of `0..<count`: every edge `u → v` has
/// `position[u] < position[v]`. Inserting `x → y` with `position[x] < position[y]` changes
/// nothing. Otherwise a forward search from `y` over nodes placed before `x` (reaching `x`
/// means a cycle) and a backward search from `x` over nodes placed after `y` find the two
/// affected sets; the backward set, then the forward set, take the sorted pool of their old
/// positions. Cost is proportional to the affected region, not the graph; both searches use
/// explicit stacks. Removing an edge never invalidates the order; a removed node keeps its
/// position as an isolated placeholder.
///
/// Reference: D. J. Pearce, P. H. J. Kelly, "A Dynamic Topological Sort Algorithm for
/// Directed Acyclic Graphs", ACM JEA 11 (2006).
public struct TopologicalOrder: Sendable {
  /// `position[node]`: the node's place in the order.
  public private(set) var position: [Int32] = []
  /// `node(at:)` inverse: `nodeAt[position]`.
  public private(set) var nodeAt: [Int32] = []
  private var visitStamp: [UInt32] = []
  private var stamp: UInt32 = 0
  private var parent: [Int32] = []

  public init() {}

  /// An order over `order.count` nodes, given as node indices listed in a valid order.
  public init(validOrder order: [Int32]) {
    nodeAt = order
    position = [Int32](repeating: 0, count: order.count)
    for (place, node) in order.enumerated() { position[Int(node)] = Int32(place) }
    visitStamp = [UInt32](repeating: 0, count: order.count)
    parent = [Int32](repeating: -1, count: order.count)
  }

  public var count: Int { position.count }

  /// Places a new node (index `count`) last.
  public mutating func appendNode() {
    let node = Int32(position.count)
    position.append(node)
    nodeAt.append(node)
    visitStamp.append(0)
    parent.append(-1)
  }

  /// Updates the order for a new edge `source → target`, or finds the cycle it would close.
  ///
  /// - Returns: `nil` if the edge keeps the graph acyclic (the order now respects it);
  ///   otherwise the cycle's nodes in edge order, starting with `source` (the order is unchanged).
  /// - Complexity: O(affected nodes and their edges), where affected nodes lie between the
  ///   two endpoints' positions.
  public mutating func insertEdge(from source: Int32, to target: Int32, in graph: some TopologicalAdjacency) -> [Int32]? {
    if source == target { return [source] }
    let lower = position[Int(target)]
    let upper = position[Int(source)]
    if upper < lower { return nil }
    nextStamp()
    // Forward from the target over nodes placed before the source.
    var forward: [Int32] = [target]
    visitStamp[Int(target)] = stamp
    parent[Int(target)] = -1
    var stack: [Int32] = [target]
    var cycleEnd: Int32 = -1
    while let node = stack.popLast(), cycleEnd < 0 {
      graph.forEachSuccessor(of: node) { successor in
        guard cycleEnd < 0 else { return }
        if successor == source {
          cycleEnd = node
          return
        }
        if visitStamp[Int(successor)] != stamp && position[Int(successor)] < upper {
          visitStamp[Int(successor)] = stamp
          parent[Int(successor)] = node
          forward.append(successor)
          stack.append(successor)
        }
      }
    }
    if cycleEnd >= 0 {
      var path: [Int32] = []
      var node = cycleEnd
      while node >= 0 {
        path.append(node)
        node = parent[Int(node)]
      }
      return [source] + path.reversed()
    }
    // Backward from the source over nodes placed after the target.
    let forwardStamp = stamp
    nextStamp()
    var backward: [Int32] = [source]
    visitStamp[Int(source)] = stamp
    stack = [source]
    while let node = stack.popLast() {
      graph.forEachPredecessor(of: node) { predecessor in
        if visitStamp[Int(predecessor)] != stamp && visitStamp[Int(predecessor)] != forwardStamp
            && position[Int(predecessor)] > lower {
          visitStamp[Int(predecessor)] = stamp
          backward.append(predecessor)
          stack.append(predecessor)
        }
      }
    }
    backward.sort { position[Int($0)] < position[Int($1)] }
    forward.sort { position[Int($0)] < position[Int($1)] }
    var pool = (backward + forward).map { position[Int($0)] }
    pool.sort()
    for (place, node) in zip(pool, backward + forward) {
      position[Int(node)] = place
      nodeAt[Int(place)] = node
    }
    return nil
  }

  private mutating func nextStamp() {
    stamp &+= 1
    if stamp == 0 {
      for index in visitStamp.indices { visitStamp[index] = 0 }
      stamp = 1
    }
  }
}

extension TopologicalOrder {
  /// Traps unless `position` and `nodeAt` are inverse permutations and every edge of `graph`
  /// goes forward. Compiled only with `FLOW_INTERNAL_CHECKS`.
  public func _checkInvariants(edges: some Sequence<(Int32, Int32)>) {
    #if FLOW_INTERNAL_CHECKS
    precondition(position.count == nodeAt.count, "Internal inconsistency: order sizes differ")
    for (place, node) in nodeAt.enumerated() {
      precondition(position[Int(node)] == Int32(place), "Internal inconsistency: position/nodeAt disagree at \(place)")
    }
    for (source, target) in edges {
      precondition(position[Int(source)] < position[Int(target)],
                   "Internal inconsistency: edge \(source) → \(target) goes backward in the order")
    }
    #endif
  }
}
