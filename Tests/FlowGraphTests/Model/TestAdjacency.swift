import FlowGraph

/// A growable multigraph for `TopologicalOrder` tests (parallel edges, edge removal), and the
/// brute-force reachability the order is checked against.
struct TestAdjacency: TopologicalAdjacency {
  var successors: [[Int32]] = []
  var predecessors: [[Int32]] = []
  var edges: [(Int32, Int32)] = []

  init(count: Int) {
    for _ in 0..<count { appendNode() }
  }

  var count: Int { successors.count }

  mutating func appendNode() {
    successors.append([])
    predecessors.append([])
  }

  mutating func add(_ source: Int32, _ target: Int32) {
    successors[Int(source)].append(target)
    predecessors[Int(target)].append(source)
    edges.append((source, target))
  }

  /// Removes edge `index` of `edges` (one copy of a parallel edge).
  mutating func remove(at index: Int) {
    let (source, target) = edges.remove(at: index)
    successors[Int(source)].remove(at: successors[Int(source)].firstIndex(of: target)!)
    predecessors[Int(target)].remove(at: predecessors[Int(target)].firstIndex(of: source)!)
  }

  func has(_ source: Int32, _ target: Int32) -> Bool { successors[Int(source)].contains(target) }

  func forEachSuccessor(of node: Int32, _ body: (Int32) -> Void) { successors[Int(node)].forEach(body) }
  func forEachPredecessor(of node: Int32, _ body: (Int32) -> Void) { predecessors[Int(node)].forEach(body) }

  /// Whether a path (possibly empty) leads from `source` to `target`.
  func reaches(_ source: Int32, _ target: Int32) -> Bool {
    var seen = Set([source])
    var stack = [source]
    while let node = stack.popLast() {
      if node == target { return true }
      for next in successors[Int(node)] where seen.insert(next).inserted { stack.append(next) }
    }
    return false
  }
}
