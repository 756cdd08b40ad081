import FlowGraph
import FlowNodes
@testable import FlowRuntime
import FlowTestSupport

import Testing

/// The engine keys its recompute queue by the order's labels, which exceed the node count once
/// the order has made room between nodes (gapped labels). A pass big enough for the queue's
/// bitset mode must still run each affected node once, in order.
@Suite struct GappedOrderTests {
  /// Store changes captured by `observe`, drained by the test.
  final class ChangeLog: Sendable {
    private let changes = Locked<[FlowStoreChange]>([])
    func append(_ change: FlowStoreChange) { changes.withLock { $0.append(change) } }
    func drain() -> [FlowStoreChange] {
      changes.withLock { changes in
        defer { changes.removeAll() }
        return changes
      }
    }
  }

  static func number(_ id: String, _ value: Double) -> FlowNode {
    FlowNode(id: id, data: NodeSpec(kind: "number", params: ["value": .number(value)]))
  }

  @Test func aBigPassOverGappedLabelsRunsEveryDescendantOnce() throws {
    // seed → c0 → c1 → … → c399, each `add` adding its `b`.
    let length = 400
    var document = FlowDocument()
    document.nodes.append(Self.number("seed", 1))
    for index in 0..<length {
      document.nodes.append(FlowNode(id: "c\(index)", data: NodeSpec(kind: "add")))
      document.edges.append(
        FlowEdge(
          id: "e\(index)", sourceNodeID: index == 0 ? "seed" : "c\(index - 1)",
          targetNodeID: "c\(index)", targetHandleID: "a"))
    }
    let store = try FlowStore(catalog: NodeKindRegistry.standard, document: document)
    let log = ChangeLog()
    let (snapshot, _, observation) = store.observe { log.append($0) }
    defer { observation.cancel() }
    var evaluator = try GraphEvaluator(validating: snapshot, registry: .standard)
    evaluator.indexEdges(snapshot.edges)
    evaluator.evaluate()
    #expect(evaluator.outputs(of: "c399")?["result"] == .number(1))

    // A node added last, wired into every chain node's `b`: the order moves it before c0 and
    // relabels with gaps.
    try store.batch { batch throws(GraphValidationError) in
      try batch.addNode(Self.number("head", 2))
      for index in 0..<length {
        try batch.addEdge(
          FlowEdge(id: "h\(index)", sourceNodeID: "head", targetNodeID: "c\(index)", targetHandleID: "b"))
      }
    }
    for change in log.drain() { for item in change.items { evaluator.apply(item) } }
    evaluator._checkInvariants()
    #expect(evaluator.graph.order.labelCapacity > evaluator.graph.nodeCount)
    var report = evaluator.evaluate()
    #expect(evaluator.outputs(of: "c399")?["result"] == .number(1 + 2 * Double(length)))
    #expect(Set(report.ran) == Set(["head"] + (0..<length).map { "c\($0)" }))

    // `head` feeds all 400 chain nodes at once: far more than the heap holds, so the queue
    // switches to its bitset, over labels up to `labelCapacity`.
    var head = Self.number("head", 5)
    head.position = store.node(id: "head")!.position
    try store.updateNode(head)
    for change in log.drain() { for item in change.items { evaluator.apply(item) } }
    report = evaluator.evaluate()
    evaluator._checkInvariants()
    #expect(evaluator.outputs(of: "c399")?["result"] == .number(1 + 5 * Double(length)))
    #expect(report.ran.count == length + 1 && report.ran.first == "head" && report.ran.last == "c399")
    #expect(report.ran == ["head"] + (0..<length).map { "c\($0)" })
  }
}
