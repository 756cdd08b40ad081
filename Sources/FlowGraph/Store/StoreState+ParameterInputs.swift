/// Every param is also an input, in the store: an edge into a handle that names a param of its
/// target gives the target an input for that param (`NodeSignature.fed(by:)`, as validation
/// does at load), and when the last edge into such an input goes, the input goes too, so that
/// the param's written value applies again.
///
/// The target's signature changes by a `.replaceNode` step that keeps the node as it is: its
/// change item (`.node(.replace(_:))`) carries the new signature in
/// `ChangeResolutions.signatures`, so an engine configures the node to take the fed input before
/// the edge arrives, and back after it left. Undo and redo replay those steps like any other.
///
/// Invariant (checked by `_checkInvariants()`): every input of a live node that feeds a param
/// has an edge.
extension StoreState {
  /// The signature node `target` needs to take an edge into `handle`: its own with an input for
  /// the param `handle` names, when that param is not fed yet; `nil` when the edge needs no new
  /// input (an input of the kind, a param already fed, or no param at all).
  ///
  /// - Complexity: O(*i*) for the node's *i* inputs.
  func signature(of target: Int32, feeding handle: String?) -> NodeSignature? {
    let signature = signatures[Int(target)]
    guard let handle, signature.parameterInput(named: handle) != nil, signature.inputIndex(named: handle) == nil
    else { return nil }
    return signature.fed(by: signature.fedParameters + [handle])
  }

  /// The signature of node `slot` whose own signature `resolved` has just been resolved again
  /// (a spec change): `resolved` with the params the node's edges feed now.
  func signature(of slot: Int32, resolvedAs resolved: NodeSignature) -> NodeSignature {
    let fed = signatures[Int(slot)].fedParameters
    return fed.isEmpty ? resolved : resolved.fed(by: fed)
  }

  /// Gives node `target` the signature `fed` (one more param input) before an edge goes into it.
  mutating func feedParameter(of target: Int32, signature fed: NodeSignature, log: inout StoreLog) {
    guard let node = nodes[Int(target)] else {
      preconditionFailure("Internal inconsistency: feeding a param of empty slot \(target)")
    }
    perform(.replaceNode(slot: target, node: node, signature: fed, ports: []), into: &log)
  }

  /// After an edge into input `port` of node `target` went away or moved: when that input feeds
  /// a param and has no edge left, drops it (the later param inputs move up one port).
  ///
  /// - Complexity: O(*i*) for the node's *i* inputs.
  mutating func releaseParameterInput(of target: Int32, port: Int32, log: inout StoreLog) {
    guard port >= 0, let node = nodes[Int(target)] else { return }
    let signature = signatures[Int(target)]
    guard Int(port) < signature.inputs.count, lists.input(of: target, port: port) < 0 else { return }
    let name = signature.inputs[Int(port)].name
    guard signature.parameterInput(named: name) != nil else { return }
    let released = signature.fed(by: signature.fedParameters.filter { $0 != name })
    perform(
      .replaceNode(
        slot: target, node: node, signature: released,
        ports: movedPorts(of: target, from: signature, to: released)), into: &log)
  }

  /// The edges into node `target` whose input moves between `old` and `new`, two signatures
  /// with the same own inputs: only param inputs (a handful, after the own ones) move.
  private func movedPorts(of target: Int32, from old: NodeSignature, to new: NodeSignature) -> [StoreStep.EdgePorts] {
    let own = old.inputs.count - old.fedParameters.count
    var ports: [StoreStep.EdgePorts] = []
    for port in own..<old.inputs.count {
      let edge = lists.input(of: target, port: Int32(port))
      guard edge >= 0 else { continue }
      let name = old.inputs[port].name
      guard let moved = new.inputs[own...].firstIndex(where: { $0.name == name }) else {
        preconditionFailure("Internal inconsistency: edge slot \(edge) into param input '\(name)' that goes away")
      }
      if moved != port {
        ports.append(.init(edge: edge, sourcePort: ends[Int(edge)].sourcePort, targetPort: Int32(moved)))
      }
    }
    return ports
  }
}
