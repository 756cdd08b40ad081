import FlowCommandLine
import FlowGraph
import FlowNodes
import FlowRuntime
import Foundation
import Testing

/// `FlowDocument(contentsOf:)`, `write(to:)` and `FlowEngine(contentsOf:)`: a host loads and
/// saves documents through the API, file nodes resolving against the document's folder.
@Suite struct DocumentFilesTests {
  /// A fresh temporary folder, removed by the caller.
  static func temporaryFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-files-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test(arguments: TestPaths.exampleNames)
  func everyExampleSurvivesASaveAndReload(example: String) throws {
    let original = try FlowDocument(
      contentsOf: TestPaths.packageRoot.appendingPathComponent(TestPaths.example(example)).path)
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try original.write(to: folder + "/saved.flow.json")
    var reloaded = try FlowDocument(contentsOf: folder + "/saved.flow.json")
    #expect(reloaded.folder == (folder as NSString).standardizingPath)
    reloaded.folder = original.folder
    #expect(reloaded == original)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder) == ["saved.flow.json"], "no temporary file left")
  }

  // host: FlowEngine(contentsOf: copy/report.flow.json) ─ evaluate ─ write(to: copy/saved.flow.json)
  //       ─ FlowEngine(contentsOf: saved) ─ evaluate ─ same outputs, node for node
  @Test func aHostSavesAndReloadsThePenguinsPipelineWithIdenticalOutputs() async throws {
    let root = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let copy = root + "/penguins"
    try FileManager.default.copyItem(
      atPath: TestPaths.packageRoot.appendingPathComponent("Examples/penguins").path, toPath: copy)
    let engine = try FlowEngine(contentsOf: copy + "/report.flow.json", registry: .standard)
    await engine.evaluate()
    let before = await engine.snapshot()
    #expect(before.failures.isEmpty, "file nodes read relative to the document's folder: \(before.failures)")
    try await engine.documentWithLiveState().write(to: copy + "/saved.flow.json")
    let reloaded = try FlowEngine(contentsOf: copy + "/saved.flow.json", registry: .standard)
    await reloaded.evaluate()
    let after = await reloaded.snapshot()
    #expect(after.presentNodeIDs == before.presentNodeIDs)
    // The writer keeps each object's key order (`groupBy.aggregate`'s columns among them), so
    // the reloaded pipeline gives the same tables, column order included.
    for id in before.presentNodeIDs {
      #expect(after.state(of: id) == before.state(of: id), "\(id)")
    }
    engine.shutDown()
    reloaded.shutDown()
  }

  @Test func readingAndWritingNameTheFileAndLeaveNoTemporaryFile() throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect { try FlowDocument(contentsOf: folder + "/missing.flow.json") } throws: { error in
      (error as? DocumentFileError)?.description == folder
        + "/missing.flow.json: cannot read the file: no such file or directory"
    }
    try Data("{ \"nodes\": [ }".utf8).write(to: URL(fileURLWithPath: folder + "/broken.flow.json"))
    #expect { try FlowDocument(contentsOf: folder + "/broken.flow.json") } throws: { error in
      (error as? DocumentFileError).map {
        $0.loadError != nil && $0.description.hasPrefix(folder + "/broken.flow.json: ")
      } ?? false
    }
    try FileManager.default.createDirectory(atPath: folder + "/taken", withIntermediateDirectories: false)
    #expect { try FlowDocument().write(to: folder + "/taken") } throws: { error in
      (error as? DocumentFileError)?.path == folder + "/taken"
    }
    #expect(throws: DocumentFileError.self) { try FlowDocument().write(to: folder + "/nowhere/saved.flow.json") }
    #expect(
      Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == ["broken.flow.json", "taken"],
      "nothing left behind")
  }
}
