/// An input port takes at most one edge.
///
/// The extra edges stay in `context.edges`: the document is rejected anyway, and the cycle rule
/// must still see a cycle that runs through one of them.
///
/// - Complexity: O(*m* log *m*) for *m* resolved edges.
enum SingleInputRule {
  static func check(_ context: inout ValidationContext) {
    // Sort edge positions by (target, port) so that edges into one input sit side by side.
    let order = context.edges.indices.sorted {
      let a = context.edges[$0], b = context.edges[$1]
      return (a.target, a.targetPort, a.documentIndex) < (b.target, b.targetPort, b.documentIndex)
    }
    var start = 0
    while start < order.count {
      var end = start + 1
      let first = context.edges[order[start]]
      while end < order.count, context.edges[order[end]].target == first.target,
            context.edges[order[end]].targetPort == first.targetPort { end += 1 }
      if end - start > 1 {
        let node = context.document.nodes[Int(first.target)]
        let port = context.signatures[Int(first.target)]!.inputs[Int(first.targetPort)].name
        let ids = order[start..<end].map { context.document.edges[Int(context.edges[$0].documentIndex)].id }
        context.report(GraphIssue(.inputAlreadyConnected,
          "input '\(port)' of node '\(node.id)' has \(ids.count) edges (\(ids.joined(separator: ", "))); an input takes one",
          nodeIDs: [node.id], edgeID: ids[1], handleID: port))
      }
      start = end
    }
  }
}
