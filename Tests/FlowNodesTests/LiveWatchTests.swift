import FlowGraph
import FlowNodes
import FlowNodesTestSupport
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing

/// `watch: true` on a file reader: the first read is the first emission; a change of the file
/// is seen on the engine's clock. No sleeping: a manual clock.
@Suite struct LiveWatchTests {
  @Test func aWatchedFileEmitsWhenItsContentsChange() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "one".write(toFile: folder + "/note.txt", atomically: true, encoding: .utf8)
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: folder)
    let document = FlowDocument(
      nodes: [
        FlowNode(id: "read", data: NodeSpec(kind: "readText", params: ["path": "note.txt", "watch": true])),
        FlowNode(id: "n", data: NodeSpec(kind: "counter"))
      ], edges: [FlowEdge(id: "e", sourceNodeID: "read", targetNodeID: "n", targetHandleID: "trigger")])
    let clock = ManualClock()
    let engine = try FlowEngine(document: document, registry: registry, clock: clock)
    var texts = engine.values(of: "read").makeAsyncIterator()
    #expect(await texts.nextOutputs() == ["text": .string("one")], "the first read is the first emission")
    await clock.waitForSleepers()
    clock.advance(by: .seconds(1))
    await clock.waitForSleepers()
    #expect(await engine.outputs(of: "n") == ["count": .integer(1)], "an unchanged file emits nothing")
    try "two".write(toFile: folder + "/note.txt", atomically: true, encoding: .utf8)
    clock.advance(by: .seconds(1))
    #expect(await texts.nextOutputs() == ["text": .string("two")])
    #expect(await engine.liveNodes().first { $0.id == "read" }?.isRunning == true)
    engine.shutDown()
  }
}
