extension TopologicalOrder {
  /// Traps unless `position` and `nodeAt` are inverse (every node holds one label, every other
  /// label is a hole) and every edge of `graph` goes forward. Compiled only with
  /// `FLOW_INTERNAL_CHECKS`.
  public func _checkInvariants(edges: some Sequence<(Int32, Int32)>) {
    #if FLOW_INTERNAL_CHECKS
    precondition(visitStamp.count == count && link.count == count, "Internal inconsistency: order scratch sizes differ")
    precondition(
      labelCapacity >= count && labelCapacity <= max(labelLimit, 2 * count + 8),
      "Internal inconsistency: \(labelCapacity) labels for \(count) nodes")
    var held = 0
    for (label, node) in nodeAt.enumerated() where node != Self.hole {
      precondition(
        node >= 0 && Int(node) < count && position[Int(node)] == Int32(label),
        "Internal inconsistency: position/nodeAt disagree at \(label)")
      held += 1
    }
    precondition(held == count, "Internal inconsistency: \(held) labels held by \(count) nodes")
    precondition(
      !isIdentity || position.indices.allSatisfy { position[$0] == Int32($0) },
      "Internal inconsistency: the order is marked identity but a node's label is not its index")
    for (source, target) in edges {
      precondition(
        position[Int(source)] < position[Int(target)],
        "Internal inconsistency: edge \(source) → \(target) goes backward in the order")
    }
    #endif
  }
}
