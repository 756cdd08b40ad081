import Foundation
import Testing

/// `flow render --values` as Reference.md, "The `flow` command line", says: it evaluates like `flow run` (paths against the
/// document's folder, the same `--allow-read`) but never writes; a write node shows
/// `not written (render)`.
@Suite struct RenderValuesTests {
  static func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-values-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  @Test func thePenguinsReportRendersFromTheRepositoryRootAndWritesNothing() async throws {
    let output = TestPaths.packageRoot.appendingPathComponent("Examples/penguins/output")
    let before = Set((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? [])
    let result = try await FlowProcess.run(["render", TestPaths.example("penguins/report.flow.json"), "--values"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!result.stdout.contains("class=\"node failed\""))
    #expect(result.stdout.contains("count = 344"), "the CSV was read from the document's folder")
    #expect(result.stdout.components(separatedBy: "path = not written (render)").count - 1 == 3)
    let after = Set((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? [])
    #expect(after == before)
  }

  @Test func aWriteNodeWritesNothing() async throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let document = folder.appendingPathComponent("write.flow.json")
    try """
    {"nodes": [{"id": "words", "data": {"kind": "text", "params": {"value": "hello"}}},
               {"id": "save", "data": {"kind": "writeText", "params": {"path": "out/new/hello.txt"}}},
               {"id": "again", "data": {"kind": "writeText", "params": {"path": "hello.txt"}}}],
     "edges": [{"id": "e1", "sourceNodeID": "words", "sourceHandleID": "value", "targetNodeID": "save", "targetHandleID": "text"},
               {"id": "e2", "sourceNodeID": "words", "sourceHandleID": "value", "targetNodeID": "again", "targetHandleID": "text"}]}
    """.write(to: document, atomically: true, encoding: .utf8)
    for format in ["svg", "dot", "mermaid"] {
      let result = try await FlowProcess.run(["render", document.path, "--values", "--format", format])
      #expect(result.status == 0, "\(format): \(result)")
      #expect(result.stdout.contains("path = not written (render)"), "\(format): \(result.stdout)")
    }
    // Nothing was created: no file, no folder.
    let contents = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(contents == ["write.flow.json"])
    // `flow run` of the same document does write, so the render was what held back.
    let run = try await FlowProcess.run(["run", document.path])
    #expect(run.status == 0, "\(run)")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/new/hello.txt").path))
  }

  @Test func readsFollowTheDocumentsFolderAndAllowRead() async throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let graphs = folder.appendingPathComponent("graphs"), data = folder.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: graphs, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    try "beside".write(to: graphs.appendingPathComponent("near.txt"), atomically: true, encoding: .utf8)
    try "elsewhere".write(to: data.appendingPathComponent("far.txt"), atomically: true, encoding: .utf8)
    let document = graphs.appendingPathComponent("read.flow.json")
    try """
    {"nodes": [{"id": "near", "data": {"kind": "readText", "params": {"path": "near.txt"}}},
               {"id": "far", "data": {"kind": "readText", "params": {"path": "../data/far.txt"}}}],
     "edges": []}
    """.write(to: document, atomically: true, encoding: .utf8)
    let denied = try await FlowProcess.run(["render", document.path, "--values"])
    #expect(denied.status == 1, "\(denied)")
    #expect(denied.stdout.contains("text = beside"))
    #expect(denied.stdout.contains("class=\"node failed\" data-id=\"far\""))
    let allowed = try await FlowProcess.run(["render", document.path, "--values", "--allow-read", data.path])
    #expect(allowed.status == 0, "\(allowed)")
    #expect(allowed.stdout.contains("text = elsewhere"))
    let misuse = try await FlowProcess.run(["render", document.path, "--allow-read", data.path])
    #expect(misuse.status == 64, "\(misuse)")
  }
}
