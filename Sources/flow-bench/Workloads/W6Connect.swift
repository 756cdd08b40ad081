import FlowRuntime
import FlowTestSupport

/// W6: connecting and disconnecting edges on the W3 graph through `FlowStore`, with the
/// incremental cycle check (`TopologicalOrder`: two-way search over gapped labels), against a full topological re-sort of the graph.
enum W6Connect {
  static let probes = 1_000

  static func run() async throws {
    var (graph, _) = BenchGraph.randomDAG()
    // Probes: `add1` nodes with a free input, added after the DAG.
    let probeIDs = (0..<probes).map { _ in graph.node("add1") }
    let store = try FlowStore(catalog: BenchKinds.registry, document: graph.document)
    var random = SeededRandom(seed: 7)

    let ends = graph.document.edges.map { edge in
      (Int32(edge.sourceNodeID.dropFirst())!, Int32(edge.targetNodeID.dropFirst())!)
    }
    let nodeCount = graph.document.nodes.count
    var sorted: [Int32] = []
    let resort = Harness.measure(inner: 20) { _ in sorted = fullTopologicalSort(nodeCount: nodeCount, edges: ends) }
    Harness.check(sorted.count == nodeCount, "W6 re-sort")
    Harness.emit(
      workload: "W6", metric: "full topological re-sort", resort, nodes: nodeCount,
      variant: "Kahn over CSR arrays (integer edges prepared outside the timing)", inner: 20,
      note: "the reference a non-incremental engine pays per edit")

    let forward = try Harness.measure(inner: 2_000) { iteration in
      let probe = probeIDs[iteration % probes]
      let source = "n\(random.next() % 100_000)"
      try store.addEdge(FlowEdge(id: "w6", sourceNodeID: source, targetNodeID: probe, targetHandleID: "a"))
      try store.removeEdge(id: "w6")
    }
    Harness.emit(
      workload: "W6", metric: "connect + disconnect with cycle check", forward, nodes: nil,
      variant: "FlowStore, edge already in topological order", inner: 2_000,
      note: "validation + order update + change delivery",
      extra: ["ratio_vs_resort": Harness.format(resort.median / forward.median, 1)])

    // Backward edges: probe (no ancestors) → a source's free input; the order must move the probe
    // (the smaller side), not the source's descendants.
    let backward = try Harness.measure(inner: 200) { iteration in
      let probe = probeIDs[iteration % probes]
      let source = "n\(random.next() % 1_000)"
      try store.addEdge(FlowEdge(id: "w6", sourceNodeID: probe, targetNodeID: source, targetHandleID: "value"))
      try store.removeEdge(id: "w6")
    }
    Harness.emit(
      workload: "W6", metric: "connect + disconnect with cycle check", backward, nodes: nil,
      variant: "FlowStore, edge against the order (a new node wired into an early one)", inner: 200,
      extra: ["ratio_vs_resort": Harness.format(resort.median / backward.median, 1)])

    // Rejected: an edge from a descendant back into its source closes a cycle.
    var rejected = 0
    let cycles = Harness.measure(inner: 200) { iteration in
      let source = iteration % 1_000
      let descendant = store.outgoingEdges(of: "n\(source)").first?.targetNodeID ?? "n\(1_000 + iteration)"
      do {
        try store.addEdge(
          FlowEdge(id: "w6c", sourceNodeID: descendant, targetNodeID: "n\(source)", targetHandleID: "value"))
        try? store.removeEdge(id: "w6c")
      } catch {
        rejected += 1
      }
    }
    Harness.check(rejected > 0, "W6 found no cycle")
    Harness.emit(
      workload: "W6", metric: "rejected connect (cycle found)", cycles, nodes: nil, variant: "FlowStore", inner: 200,
      note: "\(rejected) of \(200 * (Harness.reps + 1)) attempts closed a cycle and were rejected",
      extra: ["ratio_vs_resort": Harness.format(resort.median / cycles.median, 1)])
  }

  /// Kahn's algorithm: builds the successor CSR from the edge list, then sorts.
  static func fullTopologicalSort(nodeCount count: Int, edges ends: [(Int32, Int32)]) -> [Int32] {
    var start = [Int32](repeating: 0, count: count + 1)
    for (source, _) in ends { start[Int(source) + 1] += 1 }
    for index in 0..<count { start[index + 1] += start[index] }
    var targets = [Int32](repeating: 0, count: ends.count)
    var cursor = start
    var inDegree = [Int32](repeating: 0, count: count)
    for (source, target) in ends {
      targets[Int(cursor[Int(source)])] = target
      cursor[Int(source)] += 1
      inDegree[Int(target)] += 1
    }
    var order = (0..<Int32(count)).filter { inDegree[Int($0)] == 0 }
    order.reserveCapacity(count)
    var head = 0
    while head < order.count {
      let node = Int(order[head])
      head += 1
      for index in Int(start[node])..<Int(start[node + 1]) {
        let target = Int(targets[index])
        inDegree[target] -= 1
        if inDegree[target] == 0 { order.append(Int32(target)) }
      }
    }
    return order
  }
}
