import FlowGraph

/// A resolved reference to one input port of one node, for setting its unconnected value
/// without looking names up on every change (like Incremental's `Var`).
public struct InputReference: Sendable, Hashable {
  let node: Int32
  let port: Int32
}

extension GraphEvaluator {
  /// The input `port` of node `id`, or `nil` if either does not exist.
  public func input(_ id: String, _ port: String) -> InputReference? {
    guard let node = graph.indexByID[id], let index = graph.inputNames(of: node).firstIndex(of: port) else {
      return nil
    }
    return InputReference(node: node, port: Int32(index))
  }

  /// Sets the value an input takes while unconnected (as a param named like the port does),
  /// marking the node dirty if the value changed. A connected input ignores it until
  /// disconnected.
  ///
  /// - Throws: `NodeError` if `value` does not fit the port's type; nothing changes then.
  public mutating func setUnconnectedInput(_ input: InputReference, to value: Value) throws(NodeError) {
    let type = graph.inputTypes(of: input.node)[Int(input.port)]
    guard type.accepts(value.type) else {
      throw NodeError(
        "input '\(graph.inputNames(of: input.node)[Int(input.port)])' of node '\(graph.ids[Int(input.node)])' "
          + "takes \(type), not \(value.type)")
    }
    if graph.setUnconnected(input.node, input: input.port, to: value) { markDirty(input.node) }
  }

  /// Marks every node dirty, so the next pass recomputes the whole graph.
  public mutating func invalidateAll() {
    guard graph.removedCount == 0 else {
      for node in 0..<Int32(graph.nodeCount) where !graph.flags(of: node).contains(.removed) { markDirty(node) }
      return
    }
    // Every node: no record to read.
    dirtySet.insertEveryNode()
  }
}
