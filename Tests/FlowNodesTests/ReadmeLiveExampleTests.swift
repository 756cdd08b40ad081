// swift-format-ignore-file
// (Documentation/Reference.md shows `sumLines(in:)` line for line: see `theReadmeShowsThisFunction`.)
import FlowGraph
import FlowNodes
import FlowRuntime
import Foundation
import Testing

/// The live example of `Documentation/Reference.md` (linked from the README), compiled and run.
@Suite struct ReadmeLiveExampleTests {
  /// Sums the numbers of `numbers.txt` (one per line) in `folder`, live.
  func sumLines(in folder: String) async throws -> (total: Value?, saved: FlowDocument) {
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: folder)   // paths are relative to it
    var document = FlowDocument()
    document.nodes = [
      FlowNode(id: "lines", data: NodeSpec(kind: "lines", params: ["path": "numbers.txt"])),
      FlowNode(id: "number", data: NodeSpec(kind: "toNumber")),
      FlowNode(id: "total", data: NodeSpec(kind: "accumulate")),
    ]
    document.edges = [
      FlowEdge(id: "e1", sourceNodeID: "lines", sourceHandleID: "line", targetNodeID: "number", targetHandleID: "text"),
      FlowEdge(id: "e2", sourceNodeID: "number", targetNodeID: "total", targetHandleID: "value"),
    ]
    // Demand-driven, observing "total" from the first pass: only what it depends on is computed.
    let engine = try FlowEngine(document: document, registry: registry,
                                options: EngineOptions(demandDriven: true), observing: ["total"])
    await engine.waitForLiveSources()                  // every line emitted and processed
    let total = await engine.outputs(of: "total")?["total"]
    print(await engine.liveNodes().map { "\($0.id) \($0.policy) running: \($0.isRunning) state: \($0.state)" })
    let saved = await engine.documentWithLiveState()   // flowRuntime.liveState: a later engine resumes
    engine.shutDown()                                  // stops every source task
    return (total, saved)
  }

  @Test func theReadmeExampleSumsEveryLineAndSavesTheState() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-live-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "1\n2\n2\n 3.5 \n".write(toFile: folder + "/numbers.txt", atomically: true, encoding: .utf8)
    let (total, saved) = try await sumLines(in: folder)
    #expect(total == .number(8.5), "equal lines count twice")
    #expect(saved.liveState["lines"] == .number(4) && saved.liveState["total"] == .number(8.5))
  }

  /// `sumLines(in:)` above, line for line, is the function the README shows.
  @Test func theReadmeShowsThisFunction() throws {
    let thisFile = URL(fileURLWithPath: #filePath)
    let root = thisFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("Documentation/Reference.md"), encoding: .utf8)
    let source = try String(contentsOf: thisFile, encoding: .utf8).components(separatedBy: "\n")
    let start = try #require(source.firstIndex(of: "  /// Sums the numbers of `numbers.txt` (one per line) in `folder`, live."))
    let end = try #require(source[start...].firstIndex(of: "  }"))
    let function = source[start...end].map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }
    #expect(readme.contains(function.joined(separator: "\n") + "\n"), "Reference.md's live example differs from sumLines(in:)")
  }
}
