import FlowCommandLine
import FlowGraph
import FlowNodes
import FlowRuntime
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `flow run` stopped by a signal or `--timeout`: the pass stops, no temporary file is left and
/// the file being replaced is intact (Reference.md, "The `flow` command line").
@Suite struct RunInterruptionTests {
  /// A folder with `out.txt` ("old") and a document writing "new" over it.
  static func folder() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-signal-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: url.appendingPathComponent("barrier"), withIntermediateDirectories: true)
    let document = FlowDocument(
      nodes: [
        .node("t", "text", params: ["value": "new"]),
        .node("w", "writeText", params: ["path": "out.txt"])
      ],
      edges: [.edge("e1", "t", "w")])
    try Data(document.jsonString().utf8).write(to: url.appendingPathComponent("doc.flow.json"))
    try Data("old".utf8).write(to: url.appendingPathComponent("out.txt"))
    return url.path
  }

  /// Runs `flow run` as a child held mid-write (the debug build's write barrier), sends it
  /// `signal`, and returns its exit status.
  static func runAndSignal(_ folder: String, _ number: Int32) async throws -> (status: Int32, stderr: String) {
    guard let binary = FlowProcess.binary else { throw FlowProcessError.binaryNotFound }
    let process = Process()
    process.executableURL = binary
    process.arguments = ["run", folder + "/doc.flow.json", "--test-write-barrier", folder + "/barrier"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // The child says when its bytes are flushed and it waits before the rename (bounded).
    for _ in 0..<60_000 where !FileManager.default.fileExists(atPath: folder + "/barrier/ready") && process.isRunning {
      usleep(1_000)
    }
    #expect(FileManager.default.fileExists(atPath: folder + "/barrier/ready"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).contains { $0.contains(".flowtmp-") })
    kill(process.processIdentifier, number)
    process.waitUntilExit()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (process.terminationStatus, stderr)
  }

  @Test(arguments: [(SIGTERM, Int32(143), "SIGTERM"), (SIGINT, 130, "SIGINT"), (SIGHUP, 129, "SIGHUP")])
  func aSignalMidWriteLeavesTheOldFileAndNoTemporaryFile(signal: Int32, status: Int32, name: String) async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (exit, stderr) = try await Self.runAndSignal(folder, signal)
    #expect(exit == status, "\(stderr)")
    #expect(stderr.contains("stopped by \(name)"))
    #expect(try String(contentsOfFile: folder + "/out.txt", encoding: .utf8) == "old")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["barrier", "doc.flow.json", "out.txt"])
  }

  /// A node that runs until the host asks the pass to stop (bounded).
  struct WaitForStop: NodeKind {
    var name: String { "waitForStop" }
    var summary: String { "runs until asked to stop" }
    func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
      NodeInstance(
        inputs: [], outputs: [PortDeclaration("value", .number)],
        evaluator: Evaluator(progress: parameters.environment.progress), cost: .expensive)
    }
    struct Evaluator: NodeEvaluator {
      let progress: PassProgress?
      func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
        for _ in 0..<60_000 where progress?.isStopRequested != true { usleep(1_000) }
        outputs[0] = .number(1)
      }
    }
  }

  @Test func aTimeoutEndsTheRunNamingTheRunningNodeAndRunsNothingMore() async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-timeout-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    let document = FlowDocument(
      nodes: [
        .node("slow", "waitForStop"), .node("t", "format", params: ["template": "{x}"]),
        .node("w", "writeText", params: ["path": "after.txt"])
      ],
      edges: [.edge("e1", "slow", "t"), .edge("e2", "t", "w")])
    try Data(document.jsonString().utf8).write(to: url.appendingPathComponent("doc.flow.json"))
    var registry = NodeKindRegistry.standard
    registry.register(WaitForStop())
    let result = await FlowCommandLine.runInProcess(
      ["run", url.path + "/doc.flow.json", "--timeout", "20ms"], registry: registry)
    #expect(result.status == 1)
    #expect(result.diagnostics.joined().contains("--timeout 20ms"))
    #expect(result.diagnostics.joined().contains("while 'slow' ran"))
    #expect(!FileManager.default.fileExists(atPath: url.path + "/after.txt"))
  }

  @Test(arguments: ["0", "-1", "abc", "5x", "inf", ""])
  func aBadTimeoutIsAUsageError(value: String) async throws {
    let result = await FlowCommandLine.runInProcess(
      ["run", TestPaths.example("calculator.flow.json"), "--timeout", value],
      registry: .standard)
    #expect(result.status == 64)
  }

  @Test(arguments: ["--allow-read", "--allow-write"])
  func allowTakesOnlyAnExistingFolder(option: String) async throws {
    for value in ["", "no-such-folder-\(UUID().uuidString)", TestPaths.example("calculator.flow.json")] {
      let result = await FlowCommandLine.runInProcess(
        ["run", TestPaths.example("calculator.flow.json"), option, value],
        registry: .standard)
      #expect(result.status == 64, "\(option) '\(value)'")
      #expect(result.diagnostics.joined().contains("expects an existing folder"))
    }
    let fine = await FlowCommandLine.runInProcess(
      ["run", TestPaths.example("calculator.flow.json"), option, "Examples"],
      registry: .standard)
    #expect(fine.status == 0)
  }
}
