import FlowGraph

/// The nodes a script needs, in topological order, with each node's inputs by port: what the
/// compiler walks. Built in O(nodes + edges): the chosen nodes' ancestors by a backward walk,
/// then `TopologicalOrder.sorting(_:ready:)`, depth-first, over their edges.
struct SQLGraphPlan {
  let nodes: [FlowNode]
  /// The needed nodes' indexes, each after its inputs.
  private(set) var order: [Int] = []
  /// For each node: (target port or nil, source node index, source port or nil).
  private(set) var inputs: [[(port: String?, source: Int)]]
  /// For each node: the source port of each of `inputs` (nil where the edge names none).
  private(set) var sourcePorts: [[String?]]
  /// Whether the script outputs node i's result (a chosen node, or without a choice a writer or
  /// a table node nothing consumes).
  private(set) var isOutput: [Bool]
  let ids: Set<String>

  init(_ document: FlowDocument, chosen: [String]) throws(SQLExportError) {
    nodes = document.nodes
    var indexByID: [String: Int] = [:]
    for (index, node) in nodes.enumerated() { indexByID[node.id] = index }
    ids = Set(indexByID.keys)
    inputs = Array(repeating: [], count: nodes.count)
    sourcePorts = Array(repeating: [], count: nodes.count)
    var consumers = Array(repeating: 0, count: nodes.count)
    for edge in document.edges {
      guard let source = indexByID[edge.sourceNodeID], let target = indexByID[edge.targetNodeID] else { continue }
      inputs[target].append((edge.targetHandleID, source))
      sourcePorts[target].append(edge.sourceHandleID)
      consumers[source] += 1
    }
    var needed = Array(repeating: false, count: nodes.count)
    isOutput = Array(repeating: false, count: nodes.count)
    var stack: [Int] = []
    if chosen.isEmpty {
      for index in nodes.indices where nodes[index].data.kind != NodeSpec.groupKind {
        needed[index] = true
        isOutput[index] = consumers[index] == 0
      }
    } else {
      for id in chosen {
        guard let index = indexByID[id] else { throw SQLExportError(node: id, "there is no such node") }
        isOutput[index] = true
        if !needed[index] { needed[index] = true; stack.append(index) }
      }
      while let index = stack.popLast() {
        for input in inputs[index] where !needed[input.source] {
          needed[input.source] = true
          stack.append(input.source)
        }
      }
    }
    // The one batch sort, depth-first among the ready nodes (each chain's CTEs together), over
    // the needed nodes' edges in document order.
    var edges: [(source: Int32, target: Int32)] = []
    for target in nodes.indices where needed[target] {
      for input in inputs[target] where needed[input.source] { edges.append((Int32(input.source), Int32(target))) }
    }
    let sorted = TopologicalOrder.sorting(
      SuccessorLists(nodeCount: nodes.count, edges: edges) { $0 }, ready: .depthFirst)
    order = sorted.order.lazy.map(Int.init).filter { needed[$0] }
    let neededCount = needed.lazy.filter { $0 }.count
    guard order.count == neededCount else { throw SQLExportError(node: nil, "the graph has a cycle") }
  }
}
