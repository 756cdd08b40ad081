// The README's embedding snippet, runnable:
//
//     swift run example-embedding [path/to/calculator.flow.json]
//
// Loads the calculator, evaluates it, changes one number through the store, and prints what the
// incremental pass ran and the new results.
import Foundation
import FlowNodes
import FlowRuntime

/// The snippet, in a function: state that async code uses lives in the task, not in main-actor
/// globals of the top-level code.
func embed() async throws {
  let path = CommandLine.arguments.dropFirst().first
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("calculator.flow.json").path
  let data = try Data(contentsOf: URL(fileURLWithPath: path))

  let document = try FlowDocument(jsonBytes: Array(data))            // or build one in code
  let engine = try FlowEngine(document: document, registry: .standard)
  let first = await engine.evaluate()!                              // the first, full pass
  print("first pass ran \(first.ran.count) nodes; total =", await engine.outputs(of: "total")?["result"] ?? "?")

  var node = engine.store.node(id: "quantity")!
  node.data.params["value"] = 10
  try engine.store.updateNode(node)                                 // validated; schedules a pass
  let report = await engine.evaluate()!                             // waits for that revision
  print("after quantity = 10, ran:", report.ran.joined(separator: ", "))
  print("cut off:", report.cutOff.isEmpty ? "none" : report.cutOff.joined(separator: ", "))
  for id in ["subtotal", "tax", "total", "perPerson", "tip"] {
    print("\(id).result =", await engine.outputs(of: id)?["result"] ?? "?")
  }
  engine.shutDown()
}

try await embed()
