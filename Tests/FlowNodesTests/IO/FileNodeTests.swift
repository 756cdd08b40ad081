import Foundation
import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// File nodes in a document: paths resolve against the document's folder, escapes fail the
/// node, writes are atomic and only happen when the input is sound.
@Suite struct FileNodeTests {
  static let csv = "species,mass\nAdelie,3750\nGentoo,5000\nAdelie,NA\nGentoo,5400\n"

  /// A folder holding `data.csv`, and an evaluator for `document` whose folder it is.
  static func setUp(_ document: FlowDocument, policy: FileAccessPolicy? = nil) throws -> (
    folder: String, evaluator: GraphEvaluator
  ) {
    let folder = try KindHarness.temporaryFolder()
    try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/data.csv"))
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: folder, fileAccess: policy)
    return (folder, try GraphEvaluator(validating: document, registry: registry))
  }

  static let pipeline = FlowDocument(
    nodes: [
      .node("read", "readCSV", params: ["path": "data.csv"]),
      .node("groups", "groupBy", params: ["by": ["species"], "aggregate": ["n": "count()", "mass": "mean(mass)"]]),
      .node("sort", "sort", params: ["by": ["species"]]),
      .node("save", "writeCSV", params: ["path": "out/summary.csv"])
    ],
    edges: [.edge("e1", "read", "groups"), .edge("e2", "groups", "sort"), .edge("e3", "sort", "save")])

  @Test func aPipelineReadsAndWritesRelativeToTheDocumentsFolder() throws {
    var (folder, evaluator) = try Self.setUp(Self.pipeline)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: false)
    let report = evaluator.evaluate()
    #expect(report.ran == ["read", "groups", "sort", "save"])
    #expect(evaluator.failures == [:])
    #expect(evaluator.value(of: "save", port: "path") == .string(folder + "/out/summary.csv"))
    #expect(evaluator.value(of: "save", port: "rows") == .integer(2))
    #expect(
      try String(contentsOfFile: folder + "/out/summary.csv", encoding: .utf8)
        == "species,n,mass\nAdelie,2,3750\nGentoo,2,5200\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/out") == ["summary.csv"])
  }

  @Test func editingASortReRunsItsDescendantsButNotTheRead() throws {
    var (folder, evaluator) = try Self.setUp(Self.pipeline)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: false)
    evaluator.evaluate()
    evaluator.replaceNode(.node("sort", "sort", params: ["by": ["-n", "-species"]]))
    let report = evaluator.evaluate()
    #expect(report.ran == ["sort", "save"])
    #expect(
      try String(contentsOfFile: folder + "/out/summary.csv", encoding: .utf8).hasPrefix("species,n,mass\nGentoo"))
  }

  @Test func aWriteWhoseInputFailedDoesNotWrite() throws {
    let document = FlowDocument(
      nodes: [
        .node("read", "readCSV", params: ["path": "missing.csv"]),
        .node("save", "writeCSV", params: ["path": "data.csv"])
      ],
      edges: [.edge("e1", "read", "save")])
    var (folder, evaluator) = try Self.setUp(document)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let report = evaluator.evaluate()
    #expect(report.ran == ["read"])
    #expect(evaluator.failure(of: "read")?.contains("missing.csv") == true)
    #expect(evaluator.failure(of: "save") == "upstream error from read")
    #expect(try String(contentsOfFile: folder + "/data.csv", encoding: .utf8) == Self.csv)
  }

  @Test(arguments: ["../escape.txt", "/tmp/flow-escape-\(UUID().uuidString).txt"])
  func writesOutsideTheFolderFailTheNodeAndWriteNothing(path: String) throws {
    let document = FlowDocument(
      nodes: [
        .node("t", "text", params: ["value": "x"]),
        .node("w", "writeText", params: ["path": .string(path)])
      ],
      edges: [.edge("e1", "t", "w")])
    var (folder, evaluator) = try Self.setUp(document)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    evaluator.evaluate()
    #expect(evaluator.failure(of: "w") == FileAccessError.outside(path, access: .write).message)
    let target = path.hasPrefix("/") ? path : (folder as NSString).deletingLastPathComponent + "/escape.txt"
    #expect(!FileManager.default.fileExists(atPath: target))
  }

  @Test func aSymlinkOutOfTheFolderIsRefusedForReading() throws {
    let outside = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: outside) }
    try Data("secret".utf8).write(to: URL(fileURLWithPath: outside + "/secret.txt"))
    let document = FlowDocument(nodes: [.node("r", "readText", params: ["path": "link/secret.txt"])])
    var (folder, evaluator) = try Self.setUp(document)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: outside)
    evaluator.evaluate()
    #expect(evaluator.failure(of: "r") == FileAccessError.outside("link/secret.txt", access: .read).message)
  }

  @Test func aPolicyThatAllowsAnotherFolderLetsTheNodeWriteThere() throws {
    let outside = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: outside) }
    let document = FlowDocument(
      nodes: [
        .node("t", "text", params: ["value": "ok"]),
        .node("w", "writeText", params: ["path": .string(outside + "/new.txt")])
      ],
      edges: [.edge("e1", "t", "w")])
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(
      documentFolder: folder,
      fileAccess: FileAccessPolicy(readableRoots: [folder], writableRoots: [folder, outside]))
    var evaluator = try GraphEvaluator(validating: document, registry: registry)
    evaluator.evaluate()
    #expect(evaluator.failures == [:])
    #expect(try String(contentsOfFile: outside + "/new.txt", encoding: .utf8) == "ok")
  }

  @Test func readJSONMakesATableOfAnArrayOfObjectsAndPlainValuesOtherwise() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(#"[{"a": 1, "b": "x"}, {"a": 2.5, "b": null}]"#.utf8).write(
      to: URL(fileURLWithPath: folder + "/rows.json"))
    try Data(#"{"k": [1, null]}"#.utf8).write(to: URL(fileURLWithPath: folder + "/plain.json"))
    let environment = EvaluationEnvironment(documentFolder: folder)
    let rows = try KindHarness.run("readJSON", ["path": "rows.json"], environment: environment)[0]
    #expect(rows.tableValue?.columnNames == ["a", "b"])
    #expect(rows.tableValue?.column(named: "a")?.values == [.number(1), .number(2.5)])
    // A JSON integer stays an integer in a plain value (Reference.md, "Documents"; it read as `.number(1)` before).
    #expect(
      try KindHarness.run("readJSON", ["path": "plain.json"], environment: environment) == [
        .record(["k": .list([.integer(1), .null])])
      ])
  }

  @Test func writeJSONKeepsColumnOrderAndWriteTextWritesUTF8() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let environment = EvaluationEnvironment(documentFolder: folder)
    let table = try Table([("z", .integers([1])), ("a", .strings([nil]))])
    let written = try KindHarness.run(
      "writeJSON", ["path": "t.json", "pretty": false], [.table(table)], environment: environment)
    #expect(written == [.string(folder + "/t.json")])
    #expect(try String(contentsOfFile: folder + "/t.json", encoding: .utf8) == "[{\"z\":1,\"a\":null}]\n")
    _ = try KindHarness.run("writeText", ["path": "t.txt"], [.string("Zürich\n")], environment: environment)
    #expect(try KindHarness.run("readText", ["path": "t.txt"], environment: environment) == [.string("Zürich\n")])
  }

  @Test func raggedCSVFailsTheNodeNamingFileAndLine() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data("a,b\n1,2\n3\n".utf8).write(to: URL(fileURLWithPath: folder + "/bad.csv"))
    let environment = EvaluationEnvironment(documentFolder: folder)
    #expect(
      KindHarness.failure { try KindHarness.run("readCSV", ["path": "bad.csv"], environment: environment) }
        == "bad.csv: line 3: 1 field, expected 2 (ragged row)")
  }
}
