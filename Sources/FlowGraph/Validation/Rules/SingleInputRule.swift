/// An input port takes at most one edge.
///
/// The extra edges stay in `context.edges`: the document is rejected anyway, and the cycle rule
/// must still see a cycle that runs through one of them.
///
/// - Complexity: O(*n* + *m* + *p*) for *n* nodes, *m* resolved edges and *p* input ports: each
///   input has a slot in one flat array, so finding the inputs with two edges needs no sort.
enum SingleInputRule {
  static func check(_ context: inout ValidationContext) {
    let nodeCount = context.signatures.count
    // `base[node]`: where the node's inputs start in the flat array of input slots.
    var base = [Int](repeating: 0, count: nodeCount + 1)
    for node in 0..<nodeCount { base[node + 1] = base[node] + (context.signatures[node]?.inputs.count ?? 0) }
    // The first edge into each input slot (-1: none yet), and the slots that got a second.
    var first = [Int32](repeating: -1, count: base[nodeCount])
    var crowded: [Int] = []
    for (index, edge) in context.edges.enumerated() {
      let slot = base[Int(edge.target)] + Int(edge.targetPort)
      if first[slot] == -1 {
        first[slot] = Int32(index)
      } else if first[slot] >= 0 {
        crowded.append(slot)
        first[slot] = -2  // reported once
      }
    }
    guard !crowded.isEmpty else { return }
    // Rare: gather the edges of each crowded input in document order and report the inputs in
    // node and port order.
    var edgesBySlot: [Int: (target: Int32, positions: [Int32])] = [:]
    for slot in crowded { edgesBySlot[slot] = (-1, []) }
    for edge in context.edges {
      let slot = base[Int(edge.target)] + Int(edge.targetPort)
      guard edgesBySlot[slot] != nil else { continue }
      edgesBySlot[slot]!.target = edge.target
      edgesBySlot[slot]!.positions.append(edge.documentIndex)
    }
    for slot in crowded.sorted() {
      let (crowdedTarget, positions) = edgesBySlot[slot]!
      let target = Int(crowdedTarget)
      let node = context.document.nodes[target]
      let port = context.signatures[target]!.inputs[slot - base[target]].name
      let ids = positions.map { context.document.edges[Int($0)].id }
      context.report(
        GraphIssue(
          .inputAlreadyConnected,
          "input '\(port)' of node '\(node.id)' has \(ids.count) edges (\(ids.joined(separator: ", "))); an input takes one",
          nodeIDs: [node.id], edgeID: ids[1], handleID: port))
    }
  }
}
