/// Every param is also an input: an edge into a handle that names a param of its target
/// (`NodeSignature.parameterInputs`), and no input of it, gives the target an input of that name
/// after its own (`NodeSignature.fed(by:)`, as the store does), so that the edge rule resolves the
/// edge like any other, its type included.
///
/// Runs after the node spec rule (which fills the signatures) and before the edge rule. A
/// document whose kinds take no param from edges costs one look at its distinct signatures; an
/// edge into a handle no node's params are named like costs one set lookup.
///
/// - Complexity: O(*m*) for *m* edges (the params of a kind are a handful).
enum ParameterInputRule {
  static func check(_ context: inout ValidationContext) {
    // The param names any node takes from edges (a handful): an edge into another handle is
    // passed over without looking its target up.
    let feedable = Set(context.signatures.distinct.flatMap { $0.parameterInputs.map(\.name) })
    guard !feedable.isEmpty else { return }
    let nodeIDs = context.nodeIDs
    let nodeTable = context.nodeTable
    // The handles of the edges into each node that feed one of its params, in document order.
    var fed: [Int32: [String]] = [:]
    for edge in context.document.edges {
      guard let handle = edge.targetHandleID, feedable.contains(handle),
        let target = nodeTable.position(of: edge.targetNodeID, idAt: { nodeIDs[Int($0)] }),
        let signature = context.signatures[Int(target)],
        signature.parameterInput(named: handle) != nil
      else { continue }  // never named like an input
      fed[target, default: []].append(handle)
    }
    for (target, handles) in fed {
      guard let signature = context.signatures[Int(target)] else { continue }
      context.signatures.replace(Int(target), with: signature.fed(by: handles))
    }
  }
}
