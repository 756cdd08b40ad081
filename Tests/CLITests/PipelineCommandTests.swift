import Foundation
import Testing
@testable import FlowCommandLine
import FlowRuntime

/// `flow run` on pipelines: table output, file permissions, progress, traces, failure summaries.
@Suite struct PipelineCommandTests {
  static let people = TestPaths.fixture("pipeline/people.flow.json")

  @Test func tablesPrintAsAlignedGrids() async throws {
    let result = try await FlowProcess.run(["run", Self.people])
    #expect(result.status == 0, "\(result)")
    GoldenFile.expect(result.stdout, matches: "run-pipeline-tables.txt")
  }

  @Test func jsonTablesAreRowObjectsInColumnOrder() async throws {
    let result = try await FlowProcess.run(["run", Self.people, "--node", "teams", "--format", "json"])
    #expect(result.status == 0, "\(result)")
    let compact = result.stdout.filter { !$0.isWhitespace }
    #expect(
      compact.contains(
        #""table":[{"team":"red","people":2,"best":5},{"team":"blue","people":1,"best":null},{"team":null,"people":1,"best":1}]"#
      ))
  }

  @Test func progressIsOffWhenStderrIsNotATerminal() async throws {
    // The child's stderr is a file, not a terminal.
    let result = try await FlowProcess.run(["run", Self.people])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let lines = Lines()
    let reporter = ProgressReporter(progress: PassProgress(), nodeIDs: ["a"], isTerminal: false, threshold: .zero) {
      lines.add($0)
    }
    reporter.start()
    reporter.tick(now: ContinuousClock().now)
    reporter.stop()
    #expect(lines.all.isEmpty)
  }

  @Test func progressOnATerminalShowsNodesRunningAndRowsRead() {
    let progress = PassProgress()
    progress.nodesTotal.store(4, ordering: .relaxed)
    progress.nodesDone.store(1, ordering: .relaxed)
    progress.runningNode.store(1, ordering: .relaxed)
    progress.addRead(rows: 120_000, bytes: 14_200_000)
    let lines = Lines()
    let slow = ProgressReporter(progress: progress, nodeIDs: ["a", "read"], isTerminal: true, threshold: .seconds(3600))
    { lines.add($0) }
    slow.start()
    slow.tick(now: ContinuousClock().now)
    slow.stop()
    #expect(lines.all.isEmpty, "a pass shorter than the threshold shows nothing")
    let reporter = ProgressReporter(progress: progress, nodeIDs: ["a", "read"], isTerminal: true, threshold: .zero) {
      lines.add($0)
    }
    reporter.start()
    reporter.tick(now: ContinuousClock().now + .seconds(1))
    reporter.stop()
    #expect(lines.all.first == "\r\u{1B}[K[1/4] · running read · 120,000 rows · 14.2 MB read")
    #expect(lines.all.last == "\r\u{1B}[K")
  }

  @Test func traceHasOneSpanPerNodeWithKindsAndRows() async throws {
    let trace = FileManager.default.temporaryDirectory.appendingPathComponent("flow-trace-\(UUID().uuidString).json")
      .path
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let result = try await FlowProcess.run(["run", Self.people, "--trace", trace])
    #expect(result.status == 0, "\(result)")
    let data = try #require(FileManager.default.contents(atPath: trace))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let events = try #require(root["traceEvents"] as? [[String: Any]])
    #expect(Set(events.compactMap { $0["name"] as? String }) == ["read", "sorted", "teams", "count", "summary"])
    for event in events {
      #expect(event["ph"] as? String == "X")
      #expect((event["ts"] as? Double ?? -1) >= 0)
      #expect((event["dur"] as? Double ?? -1) >= 0)
      #expect(event["pid"] as? Int == 1)
      #expect((event["tid"] as? Int ?? 0) >= 1)
    }
    let read = try #require(events.first { $0["name"] as? String == "read" })
    #expect(read["cat"] as? String == "readCSV")
    #expect((read["args"] as? [String: Any])?["rowsOut"] as? Int == 4)
    let teams = try #require(events.first { $0["name"] as? String == "teams" })
    #expect((teams["args"] as? [String: Any])?["rowsIn"] as? Int == 4)
    #expect((teams["args"] as? [String: Any])?["rowsOut"] as? Int == 3)
  }

  @Test func traceLanesSeparateOverlappingSpans() throws {
    let spans = [
      TraceWriter.Span(node: "a", kind: "k", start: .zero, duration: .milliseconds(10)),
      TraceWriter.Span(node: "b", kind: "k", start: .milliseconds(2), duration: .milliseconds(3)),
      TraceWriter.Span(node: "c", kind: "k", start: .milliseconds(6), duration: .milliseconds(1)),
      TraceWriter.Span(node: "d", kind: "k", start: .milliseconds(11), duration: .milliseconds(1))
    ]
    let events = TraceWriter.json(spans).arrayValue(at: "traceEvents")
    #expect(events.map { $0.objectValue?["tid"]?.numberValue } == [1, 2, 2, 1])
    #expect(events.map { $0.objectValue?["ts"]?.numberValue } == [0, 2000, 6000, 11000])
  }

  @Test func failuresAreSummedUpUnlessAllIsAsked() async throws {
    let fixture = TestPaths.fixture("division-by-zero.flow.json")
    let result = try await FlowProcess.run(["run", fixture])
    #expect(result.status == 1)
    #expect(result.stdout.hasSuffix("quotient ! division by zero\n1 node failed, 2 skipped downstream\n"))
    let all = try await FlowProcess.run(["run", fixture, "--all"])
    #expect(all.stdout.contains("scaled ! upstream error from quotient\nshifted ! upstream error from quotient\n"))
    #expect(RunResult.grouped(86_906) == "86,906")
    #expect(RunResult.grouped(3) == "3")
    #expect(RunResult.grouped(1_000_000) == "1,000,000")
  }

  @Test func writesOutsideTheDocumentsFolderNeedAllowWrite() async throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("flow-cli-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(atPath: root + "/doc", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: root + "/out", withIntermediateDirectories: true)
    let document =
      #"{"nodes": [{"id": "t", "data": {"kind": "text", "params": {"value": "hi"}}}, "#
      + #"{"id": "w", "data": {"kind": "writeText", "params": {"path": "../out/x.txt"}}}], "#
      + #""edges": [{"id": "e", "sourceNodeID": "t", "targetNodeID": "w"}]}"#
    try Data(document.utf8).write(to: URL(fileURLWithPath: root + "/doc/doc.flow.json"))
    let refused = try await FlowProcess.run(["run", root + "/doc/doc.flow.json"])
    #expect(refused.status == 1)
    #expect(refused.stdout.contains("w ! path outside the allowed folders: ../out/x.txt"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/out").isEmpty)
    let allowed = try await FlowProcess.run(["run", root + "/doc/doc.flow.json", "--allow-write", root + "/out"])
    #expect(allowed.status == 0, "\(allowed)")
    #expect(try String(contentsOfFile: root + "/out/x.txt", encoding: .utf8) == "hi")
  }
}

import FlowGraph
import Synchronization

extension JSONValue {
  func arrayValue(at key: String) -> [JSONValue] { objectValue?[key]?.arrayValue ?? [] }
}

/// Lines written by a reporter, collected across threads.
final class Lines: Sendable {
  private let lines = Mutex<[String]>([])
  func add(_ line: String) { lines.withLock { $0.append(line) } }
  var all: [String] { lines.withLock { $0 } }
}
