/// The graph is a DAG. Produces the topological order, or one issue per cycle found, listing
/// the cycle's node ids in edge order (a self-loop is a cycle of one node).
///
/// Everything here is iterative: Kahn's algorithm for the order, then, for the nodes it could
/// not place, a walk along successors that are also unplaced until a node repeats.
enum CycleRule {
  /// - Complexity: O(*n* + *m*).
  static func check(_ context: inout ValidationContext) -> [Int32] {
    let nodeCount = context.document.nodes.count
    let successors = Successors(nodeCount: nodeCount, edges: context.edges)
    var inDegree = [Int32](repeating: 0, count: nodeCount)
    for edge in context.edges { inDegree[Int(edge.target)] += 1 }
    var order: [Int32] = []
    order.reserveCapacity(nodeCount)
    for node in 0..<nodeCount where inDegree[node] == 0 { order.append(Int32(node)) }
    var head = 0
    while head < order.count {
      let node = Int(order[head])
      head += 1
      for successor in successors[node] {
        inDegree[Int(successor)] -= 1
        if inDegree[Int(successor)] == 0 { order.append(successor) }
      }
    }
    if order.count < nodeCount { reportCycles(&context, successors: successors, inDegree: inDegree) }
    return order
  }

  /// Reports cycles among the nodes Kahn's algorithm left (those with `inDegree > 0`): at least
  /// one, and never the same one twice.
  ///
  /// Unplaced nodes are on a cycle or downstream of one. Pruning those without an unplaced
  /// successor (Kahn's algorithm backwards) leaves nodes that each have a successor among
  /// them, so a walk along such successors must repeat a node, and the repeat closes a cycle.
  private static func reportCycles(_ context: inout ValidationContext, successors: Successors, inDegree: [Int32]) {
    let nodeCount = inDegree.count
    var onCycleSide = inDegree.map { $0 > 0 }
    var predecessors = [[Int32]](repeating: [], count: nodeCount)
    var outDegree = [Int32](repeating: 0, count: nodeCount)
    for edge in context.edges where onCycleSide[Int(edge.source)] && onCycleSide[Int(edge.target)] {
      predecessors[Int(edge.target)].append(edge.source)
      outDegree[Int(edge.source)] += 1
    }
    var prune = (0..<nodeCount).filter { onCycleSide[$0] && outDegree[$0] == 0 }
    while let node = prune.popLast() {
      onCycleSide[node] = false
      for predecessor in predecessors[node] where onCycleSide[Int(predecessor)] {
        outDegree[Int(predecessor)] -= 1
        if outDegree[Int(predecessor)] == 0 { prune.append(Int(predecessor)) }
      }
    }
    // 0 = not visited, 1 = on the current walk, 2 = finished.
    var state = [UInt8](repeating: 0, count: nodeCount)
    var walkPosition = [Int32](repeating: -1, count: nodeCount)
    var walk: [Int32] = []
    for start in 0..<nodeCount where onCycleSide[start] && state[start] == 0 {
      walk.removeAll(keepingCapacity: true)
      var node = Int32(start)
      while state[Int(node)] == 0 {
        state[Int(node)] = 1
        walkPosition[Int(node)] = Int32(walk.count)
        walk.append(node)
        node = successors[Int(node)].first { onCycleSide[Int($0)] }!
      }
      if state[Int(node)] == 1 {
        let cycle = walk[Int(walkPosition[Int(node)])...].map { context.document.nodes[Int($0)].id }
        context.report(GraphIssue(.cycle, "cycle: \((cycle + [cycle[0]]).joined(separator: " → "))", nodeIDs: cycle))
      }
      for member in walk { state[Int(member)] = 2 }
    }
  }
}

/// Successor lists in compressed form (one array of offsets, one of node indices).
struct Successors {
  private var start: [Int32]
  private var targets: [Int32]

  init(nodeCount: Int, edges: [ResolvedGraph.Edge]) {
    start = [Int32](repeating: 0, count: nodeCount + 1)
    for edge in edges { start[Int(edge.source) + 1] += 1 }
    for node in 0..<nodeCount { start[node + 1] += start[node] }
    targets = [Int32](repeating: 0, count: edges.count)
    var cursor = start
    for edge in edges {
      targets[Int(cursor[Int(edge.source)])] = edge.target
      cursor[Int(edge.source)] += 1
    }
  }

  subscript(node: Int) -> ArraySlice<Int32> { targets[Int(start[node])..<Int(start[node + 1])] }
}
