/// Every param is also an input: an edge into a handle that names a param of its target
/// (`NodeSignature.parameterInputs`), and no input of it, gives the target an input of that name
/// after its own, so that the edge rule resolves the edge like any other.
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
    let feedable = Set(context.signatures.distinct.flatMap(\.parameterInputs))
    guard !feedable.isEmpty else { return }
    let nodeIDs = context.nodeIDs
    let nodeTable = context.nodeTable
    // The params each node gets from edges, in the order the edges name them.
    var fed: [Int32: [String]] = [:]
    for edge in context.document.edges {
      guard let handle = edge.targetHandleID, feedable.contains(handle),
            let target = nodeTable.position(of: edge.targetNodeID, idAt: { nodeIDs[Int($0)] }),
            let signature = context.signatures[Int(target)],
            signature.parameterInputs.contains(handle) else { continue }  // never named like an input
      if fed[target, default: []].contains(handle) { continue }  // a second edge: the single-input rule reports it
      fed[target, default: []].append(handle)
    }
    for (target, names) in fed {
      guard let signature = context.signatures[Int(target)] else { continue }
      context.signatures.replace(Int(target), with: signature.feeding(names))
    }
  }
}
