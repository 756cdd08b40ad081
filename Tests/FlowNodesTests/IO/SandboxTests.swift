import FlowGraph
import FlowNodes
import FlowRuntime
import Foundation
import Testing

/// Every escape spelling, through every kind of file node (Reference.md, "Evaluation"): reads,
/// writes, `lines` and watched readers all fail with the SPEC's message and touch nothing
/// outside.
@Suite struct SandboxTests {
  /// base/doc (the document's folder) and base/outside (with secret.txt); in doc, `link` →
  /// outside, `nested` → link, `abs` → /etc, `dev` → /dev, `.git/config` and `.env`.
  static func layout() throws -> (base: String, doc: String, outside: String) {
    let manager = FileManager.default
    let url = manager.temporaryDirectory.appendingPathComponent("flow-sandbox-\(UUID().uuidString)")
    try manager.createDirectory(at: url, withIntermediateDirectories: true)
    let base = url.resolvingSymlinksInPath().path
    let doc = base + "/doc", outside = base + "/outside"
    try manager.createDirectory(atPath: doc + "/.git", withIntermediateDirectories: true)
    try manager.createDirectory(atPath: outside, withIntermediateDirectories: true)
    try Data("secret\n".utf8).write(to: URL(fileURLWithPath: outside + "/secret.txt"))
    try Data("[core]\n".utf8).write(to: URL(fileURLWithPath: doc + "/.git/config"))
    try Data("KEY=1\n".utf8).write(to: URL(fileURLWithPath: doc + "/.env"))
    try manager.createSymbolicLink(atPath: doc + "/link", withDestinationPath: outside)
    try manager.createSymbolicLink(atPath: doc + "/nested", withDestinationPath: "link")
    try manager.createSymbolicLink(atPath: doc + "/abs", withDestinationPath: "/etc")
    try manager.createSymbolicLink(atPath: doc + "/dev", withDestinationPath: "/dev")
    return (base, doc, outside)
  }

  static let spellings = [
    "nx/../link/secret.txt", "nested/secret.txt", "link/secret.txt", "../outside/secret.txt", "abs/passwd",
    "nx/../abs/passwd", "dev/zero", ".git/config", ".env", "/etc/passwd"
  ]

  static func registry(_ doc: String) -> NodeKindRegistry {
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: doc)
    return registry
  }

  @Test(arguments: spellings)
  func readsAndWritesAreRefused(path: String) throws {
    let (base, doc, outside) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let document = FlowDocument(
      nodes: [
        .node("r", "readText", params: ["path": .string(path)]), .node("c", "readCSV", params: ["path": .string(path)]),
        .node("t", "text", params: ["value": "pwned"]), .node("w", "writeText", params: ["path": .string(path)])
      ],
      edges: [.edge("e1", "t", "w")])
    var evaluator = try GraphEvaluator(validating: document, registry: Self.registry(doc))
    evaluator.evaluate()
    #expect(evaluator.failure(of: "r") == FileAccessError.outside(path, access: .read).message)
    #expect(evaluator.failure(of: "c") == FileAccessError.outside(path, access: .read).message)
    #expect(evaluator.failure(of: "w") == FileAccessError.outside(path, access: .write).message)
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["secret.txt"])
    #expect(try String(contentsOfFile: doc + "/.git/config", encoding: .utf8) == "[core]\n")
  }

  @Test(arguments: spellings)
  func linesAndWatchedReadersAreRefused(path: String) async throws {
    let (base, doc, _) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let document = FlowDocument(nodes: [
      .node("lines", "lines", params: ["path": .string(path)]),
      .node("watch", "readText", params: ["path": .string(path), "watch": true])
    ])
    let engine = try FlowEngine(
      document: document, registry: Self.registry(doc),
      options: EngineOptions(demandDriven: true), observing: ["lines", "watch"])
    await engine.waitForLiveSources()
    let failures = await engine.failures()
    engine.shutDown()
    #expect(failures["lines"] == FileAccessError.outside(path, access: .read).message)
    #expect(failures["watch"] == FileAccessError.outside(path, access: .read).message)
  }

  @Test func aFIFOFailsTheReaderInsteadOfHangingIt() throws {
    let (base, doc, _) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: base) }
    #expect(mkfifo(doc + "/pipe", 0o600) == 0)
    let document = FlowDocument(nodes: [.node("r", "readCSV", params: ["path": "pipe"])])
    var evaluator = try GraphEvaluator(validating: document, registry: Self.registry(doc))
    evaluator.evaluate()
    #expect(evaluator.failure(of: "r")?.hasSuffix("not a regular file (a FIFO)") == true)
  }

  @Test func aDotPathIsAFolderAndNothingIsWrittenAboveIt() throws {
    let (base, doc, _) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let document = FlowDocument(
      nodes: [.node("t", "text", params: ["value": "x"]), .node("w", "writeText", params: ["path": "."])],
      edges: [.edge("e1", "t", "w")])
    var evaluator = try GraphEvaluator(validating: document, registry: Self.registry(doc))
    evaluator.evaluate()
    #expect(evaluator.failure(of: "w") == "cannot write \(doc): it is a folder")
    #expect(try FileManager.default.contentsOfDirectory(atPath: base).sorted() == ["doc", "outside"])
  }

  @Test func writersMakeMissingFoldersInsideTheAllowedFoldersOnly() throws {
    let (base, doc, outside) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let paths = ["out/deep/a.txt", "../outside/made/b.txt", ".cache/c.txt", "nx/../d.txt", "link/made/e.txt"]
    var nodes: [FlowNode] = [.node("t", "text", params: ["value": "x"])]
    var edges: [FlowEdge] = []
    for (index, path) in paths.enumerated() {
      nodes.append(.node("w\(index)", "writeText", params: ["path": .string(path)]))
      edges.append(.edge("e\(index)", "t", "w\(index)"))
    }
    nodes.append(.node("off", "writeText", params: ["path": "other/f.txt", "createFolders": false]))
    edges.append(.edge("eoff", "t", "off"))
    var evaluator = try GraphEvaluator(
      validating: FlowDocument(nodes: nodes, edges: edges), registry: Self.registry(doc))
    evaluator.evaluate()
    #expect(evaluator.failure(of: "w0") == nil)
    #expect(try String(contentsOfFile: doc + "/out/deep/a.txt", encoding: .utf8) == "x")
    #expect(evaluator.failure(of: "w1") == FileAccessError.outside("../outside/made/b.txt", access: .write).message)
    #expect(evaluator.failure(of: "w2") == FileAccessError.outside(".cache/c.txt", access: .write).message)
    #expect(evaluator.failure(of: "w3") == nil)  // `nx/..` is taken as written: no folder `nx` is made
    #expect(evaluator.failure(of: "w4") == FileAccessError.outside("link/made/e.txt", access: .write).message)
    #expect(evaluator.failure(of: "off") == "cannot write \(doc)/other/f.txt: the folder \(doc)/other does not exist")
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["secret.txt"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: doc).sorted()
        == [".env", ".git", "abs", "d.txt", "dev", "link", "nested", "out"])
  }
}
