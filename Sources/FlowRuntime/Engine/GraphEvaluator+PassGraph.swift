// The evaluator as `PassStateMachine` reads it: the graph's shape and order, the failure roots
// in the node records, and each node's role from its flags, the demand and the options.

extension GraphEvaluator: PassGraph {
  var passNodeCount: Int { graph.nodeCount }
  var passPositionCapacity: Int { graph.order.labelCapacity }
  func passPosition(of node: Int32) -> Int32 { graph.order.position[Int(node)] }
  func passNode(at position: Int32) -> Int32 { graph.order.nodeAt[Int(position)] }
  func passSuccessorCount(of node: Int32) -> Int { Int(graph.record(node).successorCount) }
  func passSuccessor(_ offset: Int, of node: Int32) -> Int32 { graph.successors(of: node)[offset] }
  func passInputCount(of node: Int32) -> Int { Int(graph.record(node).inputCount) }
  func passInputSource(_ port: Int, of node: Int32) -> Int32 { graph.sourceNode(of: node, input: Int32(port)) }
  func passFailureRoot(of node: Int32) -> Int32 { graph.record(node).failure }
  func passHasPendingInput(_ node: Int32) -> Bool { pendingSet.count > 0 && hasPendingInput(node) }
  var passHasFailures: Bool { failureTable.count > 0 }
  func passHasLazyInputs(_ node: Int32) -> Bool { graph.record(node).flags & EvaluationGraph.Flags.lazy.rawValue != 0 }

  /// What a pass does with `node` (`NodeDisposition`'s rules).
  ///
  /// - Parameter needed: in a lazy pass, whether the pass needs the node (eagerly, or brought
  ///   up); `true` in any other pass.
  @inline(__always)
  func disposition(of node: Int32, needed: Bool = true) -> NodeDisposition {
    NodeDisposition(of: node, in: self, needed: needed)
  }

  @inline(__always)
  func passRole(of node: Int32) -> PassRole {
    let flags = graph.flags(of: node)
    if !flags.isDisjoint(with: .inert) { return .inert }
    if !isComputed(node) { return .unnecessary }
    if !flags.isDisjoint(with: .live) { return .live }
    return flags.contains(.expensive) ? .expensive : .cheap
  }
}
