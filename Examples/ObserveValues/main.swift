// Observing an engine's results as they change:
//
//     swift run example-observe-values
//
// Subscribes to the outputs of `total` with `values(of:)`, changes `quantity` three times, reads
// one value per completed pass, then shuts the engine down (which ends the sequence).
import FlowNodes
import FlowRuntime

let document = FlowDocument(
  nodes: [
    FlowNode(id: "price", data: NodeSpec(kind: "number", params: ["value": 2.5])),
    FlowNode(id: "quantity", data: NodeSpec(kind: "number", params: ["value": 4])),
    FlowNode(id: "total", data: NodeSpec(kind: "multiply")),
  ],
  edges: [
    FlowEdge(id: "e1", sourceNodeID: "price", sourceHandleID: "value", targetNodeID: "total", targetHandleID: "a"),
    FlowEdge(id: "e2", sourceNodeID: "quantity", sourceHandleID: "value", targetNodeID: "total", targetHandleID: "b"),
  ])

/// Reads one value of `total` per completed pass. (A function, so the iterator is a local of
/// the current task rather than a main-actor global.)
func observeTotals() async throws {
  let engine = try FlowEngine(document: document, registry: .standard)
  await engine.evaluate()
  var totals = engine.values(of: "total").makeAsyncIterator()
  print("total =", await totals.next()?["result"] ?? "?")        // the current value first
  for quantity in [6, 8, 10] {
    var node = engine.store.node(id: "quantity")!
    node.data.params["value"] = .number(Double(quantity))
    try engine.store.updateNode(node)
    await engine.evaluate()                                       // the pass publishes the new total
    print("quantity = \(quantity) → total =", await totals.next()?["result"] ?? "?")
  }
  engine.shutDown()
  print("after shutDown the sequence ends:", await totals.next() == nil)
}

try await observeTotals()
