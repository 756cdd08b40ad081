// Observing an engine's results as they change:
//
//     swift run example-observe-values
//
// Subscribes to the state of `each` with `values(of:)` after a change was already evaluated
// (the sequence starts with the current state, so nothing is lost), makes it fail and recover,
// shows that an identical update makes no pass, then shuts the engine down (which ends the
// sequence). Last, an `@Observable` view model, as a SwiftUI app would hold one, follows the
// same node from a task started after an edit and still sees that edit's result first.
import FlowNodes
import FlowRuntime
import Observation

let document = FlowDocument(
  nodes: [
    FlowNode(id: "price", data: NodeSpec(kind: "number", params: ["value": 10])),
    FlowNode(id: "quantity", data: NodeSpec(kind: "number", params: ["value": 4])),
    FlowNode(id: "each", data: NodeSpec(kind: "divide")),
  ],
  edges: [
    FlowEdge(id: "e1", sourceNodeID: "price", sourceHandleID: "value", targetNodeID: "each", targetHandleID: "a"),
    FlowEdge(id: "e2", sourceNodeID: "quantity", sourceHandleID: "value", targetNodeID: "each", targetHandleID: "b"),
  ])

/// One line for a state of `each`.
func describe(_ state: NodeState?) -> String {
  switch state {
  case .value(let outputs)?: "each = \(outputs["result"].map { "\($0)" } ?? "?")"
  case .failed(let message, let root)?: "each failed: \(message) (at \(root))"
  case .pending?, .notComputed?: "each has no value"
  case nil: "the sequence ended"
  }
}

/// Sets the number of node `id`.
func set(_ engine: FlowEngine, _ id: String, to value: Double) throws {
  var node = engine.store.node(id: id)!
  node.data.params["value"] = .number(value)
  try engine.store.updateNode(node)
}

/// Reads one state of `each` per completed pass. (A function, so the iterator is a local of
/// the current task rather than a main-actor global.)
func observe() async throws {
  let engine = try FlowEngine(document: document, registry: .standard)
  await engine.evaluate()
  try set(engine, "quantity", to: 5)          // cheap: usually evaluated before `updateNode` returns
  await engine.evaluate()                     // (and certainly once this returns)
  var states = engine.values(of: "each").makeAsyncIterator()
  print(describe(await states.next()?.state))        // the current state comes first: each = 2
  for quantity in [0.0, 4] {
    try set(engine, "quantity", to: quantity)
    await engine.evaluate()                   // the pass publishes the new state
    print("quantity = \(quantity) →", describe(await states.next()?.state))
  }
  let last = await engine.evaluate()!
  try set(engine, "quantity", to: 4)          // identical: the store makes no revision
  let again = await engine.evaluate()!        // no pass ran: the same report again
  print("an identical update: revision \(again.revision), as before: \(again.revision == last.revision)")
  engine.shutDown()
  print("after shutDown the sequence ends:", await states.next() == nil)
}

/// A view model a SwiftUI view reads: the text of `each` and the revision it shows. `follow`
/// runs for as long as the view is up (a `.task { await model.follow(engine) }`); because
/// `values(of:)` starts with the current state whenever iteration begins, the model shows the
/// current value at once, however late its task starts.
@MainActor @Observable final class EachViewModel {
  private(set) var text = "…"
  private(set) var revision = -1

  func follow(_ engine: FlowEngine, until revision: Int) async {
    for await update in engine.values(of: "each") {
      text = describe(update.state)
      self.revision = update.revision
      if update.revision >= revision { return }  // an app follows until the view goes away
    }
  }
}

/// An edit, then a view model whose task starts afterwards.
@MainActor func showInAViewModel() async throws {
  let engine = try FlowEngine(document: document, registry: .standard)
  await engine.evaluate()
  try set(engine, "price", to: 12)            // evaluated before `updateNode` returns
  let model = EachViewModel()
  await Task { await model.follow(engine, until: engine.store.revision) }.value
  print("view model: \(model.text) (revision \(model.revision))")
  engine.shutDown()
}

try await observe()
try await showInAViewModel()
