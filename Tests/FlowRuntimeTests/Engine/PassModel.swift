@testable import FlowRuntime
import FlowTestSupport
import Testing

/// A plain graph for `PassStateMachine`, with the state a pass changes: each node's value (an
/// integer from its inputs) and failure root. A node computes `(seed + Σ inputs) % 3`, so cutoffs
/// are common, and a *throwing* node fails when that sum is divisible by 4.
struct PassModel: PassGraph, Equatable {
  /// Per node, per input port: the source node, or -1 (unconnected, reads 0).
  var inputs: [[Int32]]
  /// Per node, one entry per edge leaving it.
  var successors: [[Int32]]
  var positions: [Int32]
  /// By position: the node there, or -1 (a gap).
  var nodeAt: [Int32]
  var roles: [PassRole]
  var seeds: [Int]
  var throwing: [Bool]
  var values: [Int]
  var failures: [Int32]

  /// `count` nodes with `edges` (`from` → `to`, port order by listing order), positions in
  /// index order with gaps, all cheap unless listed.
  init(
    count: Int, edges: [(Int32, Int32)], expensive: Set<Int32> = [], inert: Set<Int32> = [],
    throwing: Set<Int32> = [], positions: [Int32]? = nil
  ) {
    inputs = Array(repeating: [], count: count)
    successors = Array(repeating: [], count: count)
    for (from, to) in edges {
      inputs[Int(to)].append(from)
      successors[Int(from)].append(to)
    }
    self.positions = positions ?? (0..<count).map { Int32(2 * $0 + 1) }
    nodeAt = Array(repeating: -1, count: Int(self.positions.max() ?? 0) + 2)
    for (node, position) in self.positions.enumerated() { nodeAt[Int(position)] = Int32(node) }
    roles = (0..<Int32(count)).map { expensive.contains($0) ? .expensive : inert.contains($0) ? .inert : .cheap }
    seeds = Array(repeating: 1, count: count)
    self.throwing = (0..<Int32(count)).map { throwing.contains($0) }
    values = Array(repeating: 0, count: count)
    failures = Array(repeating: -1, count: count)
  }

  var passNodeCount: Int { inputs.count }
  var passPositionCapacity: Int { nodeAt.count }
  func passPosition(of node: Int32) -> Int32 { positions[Int(node)] }
  func passNode(at position: Int32) -> Int32 { nodeAt[Int(position)] }
  func passSuccessorCount(of node: Int32) -> Int { successors[Int(node)].count }
  func passSuccessor(_ offset: Int, of node: Int32) -> Int32 { successors[Int(node)][offset] }
  func passInputCount(of node: Int32) -> Int { inputs[Int(node)].count }
  func passInputSource(_ port: Int, of node: Int32) -> Int32 { inputs[Int(node)][port] }
  func passFailureRoot(of node: Int32) -> Int32 { failures[Int(node)] }
  func passRole(of node: Int32) -> PassRole { roles[Int(node)] }
  func passHasPendingInput(_ node: Int32) -> Bool { false }

  /// What running `node` on its current inputs gives: its value, or `nil` when it throws.
  func compute(_ node: Int32) -> Int? {
    var sum = seeds[Int(node)]
    for source in inputs[Int(node)] where source >= 0 { sum += values[Int(source)] }
    if throwing[Int(node)] && sum % 4 == 0 { return nil }
    return sum % 3
  }

  /// Stores a run's result (`compute`), as the evaluator does; returns the outcome.
  mutating func store(_ node: Int32, _ result: Int?) -> PassStateMachine.Outcome {
    let index = Int(node)
    guard let result else { return fail(node, root: node) }
    var changed = failures[index] >= 0
    failures[index] = -1
    if values[index] != result {
      values[index] = result
      changed = true
    }
    return changed ? .changed : .unchanged
  }

  /// Records `node` failed with root cause `root`; returns the outcome.
  mutating func fail(_ node: Int32, root: Int32) -> PassStateMachine.Outcome {
    let changed = failures[Int(node)] != root
    failures[Int(node)] = root
    return changed ? .failed(root: root) : .unchanged
  }

  /// The root of the first failed input in port order.
  func failedInputRoot(of node: Int32) -> Int32? {
    inputs[Int(node)].first { $0 >= 0 && failures[Int($0)] >= 0 }.map { failures[Int($0)] }
  }

  /// The reference pass: every node in topological order, run iff it is dirty or an input
  /// changed, failed without running if an input is failed. Returns what ran and what failed
  /// upstream.
  mutating func referencePass(dirty: Set<Int32>) -> (ran: Set<Int32>, failedUpstream: Set<Int32>) {
    var changed = Set<Int32>()
    var ran = Set<Int32>(), failedUpstream = Set<Int32>()
    for node in nodeAt where node >= 0 {
      guard dirty.contains(node) || inputs[Int(node)].contains(where: changed.contains),
        roles[Int(node)] != .inert
      else { continue }
      let outcome: PassStateMachine.Outcome
      if let root = failedInputRoot(of: node) {
        failedUpstream.insert(node)
        outcome = fail(node, root: root)
      } else {
        ran.insert(node)
        outcome = store(node, compute(node))
      }
      if outcome.propagates { changed.insert(node) }
    }
    return (ran, failedUpstream)
  }

  /// A random DAG of 2…`maximumCount` nodes in a random topological order (with gaps):
  /// up to three input ports each, some unconnected, some from the same source twice.
  static func random(_ random: inout SeededRandom, maximumCount: Int = 40) -> PassModel {
    let count = Int.random(in: 2...maximumCount, using: &random)
    let inert = Set((0..<Int32(count)).filter { _ in Int.random(in: 0..<10, using: &random) == 0 })
    // `rank[k]` is the k-th node in topological order.
    let rank = (0..<Int32(count)).shuffled(using: &random)
    var positions = [Int32](repeating: 0, count: count)
    var position: Int32 = 0
    for node in rank {
      position += Int32.random(in: 1...3, using: &random)
      positions[Int(node)] = position
    }
    var edges: [(Int32, Int32)] = []
    var unconnected: [(Int32, Int)] = []
    for (index, node) in rank.enumerated() where index > 0 && !inert.contains(node) {
      for port in 0..<Int.random(in: 0...3, using: &random) {
        let source = rank[Int.random(in: 0..<index, using: &random)]
        if inert.contains(source) || Int.random(in: 0..<8, using: &random) == 0 {
          unconnected.append((node, port))
        } else {
          edges.append((source, node))
        }
      }
    }
    let expensive = Set((0..<Int32(count)).filter { !inert.contains($0) && Bool.random(using: &random) })
    let throwing = Set((0..<Int32(count)).filter { _ in Int.random(in: 0..<4, using: &random) == 0 })
    var model = PassModel(
      count: count, edges: edges, expensive: expensive, inert: inert, throwing: throwing,
      positions: positions)
    // Unconnected ports, in the order listed (ports past the connected ones).
    for (node, _) in unconnected { model.inputs[Int(node)].append(-1) }
    model.seeds = (0..<count).map { _ in Int.random(in: 0..<12, using: &random) }
    return model
  }
}
