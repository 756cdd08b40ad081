/// A whole graph ordered at once — what the validator and the layered layout use (the
/// incremental `insertEdge` keeps such an order up to date afterwards).
///
/// Kahn's algorithm: the nodes without predecessors in index order, then each node as soon as
/// its last predecessor is placed (a first-in first-out queue, or a stack for a depth-first
/// order). In a graph with a cycle the
/// nodes on a cycle, and those downstream of one, are left out; `cycles(in:among:)` then finds
/// one cycle per strongly connected component (Tarjan's algorithm with an explicit stack, then
/// a walk along successors inside the component until a node repeats). Nothing recurses.
extension TopologicalOrder {
  /// The result of `sorting(_:)`.
  package struct BatchOrder: Sendable {
    /// Every node that is on no cycle and downstream of none, each after all of its
    /// predecessors; all nodes when the graph is acyclic.
    package var order: [Int32]
    /// Whether each node was left out (`nil` when none was: the graph is acyclic).
    package var unplaced: [Bool]?

    package var isComplete: Bool { unplaced == nil }
  }

  /// Which ready node Kahn's algorithm places next.
  package enum ReadyOrder: Sendable {
    /// The one that became ready first (a queue): the nodes without predecessors in index
    /// order, then by waves.
    case firstInFirstOut
    /// The one that became ready last (a stack; the nodes without predecessors are taken in
    /// index order): each node's successors follow it as soon as they are ready, so a chain
    /// stays together — the order of the CTEs `flow export --sql` writes.
    case depthFirst
  }

  /// Orders the graph of `successors` (Kahn's algorithm), placing ready nodes in `ready` order.
  ///
  /// - Complexity: O(*n* + *m*).
  package static func sorting(_ successors: SuccessorLists, ready: ReadyOrder = .firstInFirstOut) -> BatchOrder {
    let nodeCount = successors.nodeCount
    var inDegree = [Int32](repeating: 0, count: nodeCount)
    for node in 0..<nodeCount { for successor in successors[node] { inDegree[Int(successor)] += 1 } }
    var order: [Int32] = []
    order.reserveCapacity(nodeCount)
    if ready == .depthFirst {
      var stack: [Int32] = (0..<nodeCount).reversed().filter { inDegree[$0] == 0 }.map(Int32.init)
      while let node = stack.popLast() {
        order.append(node)
        for successor in successors[Int(node)] {
          inDegree[Int(successor)] -= 1
          if inDegree[Int(successor)] == 0 { stack.append(successor) }
        }
      }
      return BatchOrder(order: order, unplaced: order.count < nodeCount ? inDegree.map { $0 > 0 } : nil)
    }
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
    return BatchOrder(order: order, unplaced: order.count < nodeCount ? inDegree.map { $0 > 0 } : nil)
  }

  /// One cycle in each strongly connected component of the nodes `unplaced` marks (those a
  /// sort left out: on a cycle or downstream of one) that holds one, in index order of the
  /// components' first nodes; each cycle lists its nodes in edge order (a self-loop is a cycle
  /// of one node).
  ///
  /// A walk from a node of a component along successors inside that component must repeat a
  /// node, and the repeat closes a cycle. Walking by component matters: a walk free to leave
  /// its component could run into a downstream cycle and never report the one it started from
  /// (A ⇄ B → C ⇄ D).
  ///
  /// - Complexity: O(*n* + *m*).
  package static func cycles(in successors: SuccessorLists, among unplaced: [Bool]) -> [[Int32]] {
    let component = stronglyConnectedComponents(successors, members: unplaced)
    var visited = [Bool](repeating: false, count: unplaced.count)
    var walkPosition = [Int32](repeating: -1, count: unplaced.count)
    var walk: [Int32] = []
    var cycles: [[Int32]] = []
    for start in unplaced.indices where component[start] >= 0 && !visited[Int(component[start])] {
      let members = component[start]
      visited[Int(members)] = true
      // Every node of a larger component has a successor inside it; a single node only if it
      // has a self-loop (otherwise it is no cycle, just downstream of one).
      guard successors[start].contains(where: { component[Int($0)] == members }) else { continue }
      walk.removeAll(keepingCapacity: true)
      var node = Int32(start)
      while walkPosition[Int(node)] < 0 {
        walkPosition[Int(node)] = Int32(walk.count)
        walk.append(node)
        node = successors[Int(node)].first { component[Int($0)] == members }!
      }
      cycles.append(Array(walk[Int(walkPosition[Int(node)])...]))
      for member in walk { walkPosition[Int(member)] = -1 }
    }
    return cycles
  }

  /// The strongly connected components of the subgraph induced by `members` (Tarjan's algorithm
  /// with an explicit stack): `component[node]` is a component number, or -1 outside `members`.
  ///
  /// - Complexity: O(*n* + *m*); no recursion.
  static func stronglyConnectedComponents(_ successors: SuccessorLists, members: [Bool]) -> [Int32] {
    let nodeCount = members.count
    var component = [Int32](repeating: -1, count: nodeCount)
    var index = [Int32](repeating: -1, count: nodeCount)
    var low = [Int32](repeating: 0, count: nodeCount)
    var onStack = [Bool](repeating: false, count: nodeCount)
    var stack: [Int32] = []
    var calls: [(node: Int32, next: Int)] = []
    var counter: Int32 = 0
    var components: Int32 = 0
    func visit(_ node: Int32) {
      index[Int(node)] = counter
      low[Int(node)] = counter
      counter += 1
      stack.append(node)
      onStack[Int(node)] = true
      calls.append((node, successors[Int(node)].startIndex))
    }
    for root in 0..<nodeCount where members[root] && index[root] < 0 {
      visit(Int32(root))
      while let (node, next) = calls.last {
        let targets = successors[Int(node)]
        if next < targets.endIndex {
          calls[calls.count - 1].next += 1
          let successor = targets[next]
          guard members[Int(successor)] else { continue }
          if index[Int(successor)] < 0 {
            visit(successor)
          } else if onStack[Int(successor)] {
            low[Int(node)] = min(low[Int(node)], index[Int(successor)])
          }
          continue
        }
        calls.removeLast()
        if let (parent, _) = calls.last { low[Int(parent)] = min(low[Int(parent)], low[Int(node)]) }
        if low[Int(node)] == index[Int(node)] {
          while let member = stack.popLast() {
            onStack[Int(member)] = false
            component[Int(member)] = components
            if member == node { break }
          }
          components += 1
        }
      }
    }
    return component
  }
}
