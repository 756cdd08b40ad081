import Foundation
import Testing
@testable import FlowCommandLine

/// `flow run --max-rows N --max-string-bytes N --max-memory SIZE` (Reference.md, "Files and limits"): the
/// values they take, the usage errors for others, and their effect on a hostile document.
@Suite struct RunLimitOptionsTests {
  /// A `text` node and `count` chained `format "{x}{x}"` nodes: each doubles the text.
  static func doublingChain(_ count: Int = 40) -> String {
    var nodes = [#"{"id": "t", "data": {"kind": "text", "params": {"value": "ab"}}}"#]
    var edges: [String] = []
    for index in 0..<count {
      nodes.append(#"{"id": "f\#(index)", "data": {"kind": "format", "params": {"template": "{x}{x}"}}}"#)
      let source =
        index == 0
        ? #""sourceNodeID": "t", "sourceHandleID": "value""#
        : #""sourceNodeID": "f\#(index - 1)", "sourceHandleID": "text""#
      edges.append(#"{"id": "e\#(index)", \#(source), "targetNodeID": "f\#(index)", "targetHandleID": "x"}"#)
    }
    return #"{"nodes": [\#(nodes.joined(separator: ","))], "edges": [\#(edges.joined(separator: ","))]}"#
  }

  @Test(arguments: [
    ("0", 0), ("100", 100), ("100B", 100), ("2K", 2048), ("512M", 512 << 20), ("2G", 2 << 30),
    ("2g", 2 << 30), ("3GiB", 3 << 30), ("1T", 1 << 40), ("8kb", 8192)
  ])
  func sizesTakeAUnitOfPowersOf1024(text: String, bytes: Int) {
    #expect(RunLimitOptions.size(text) == bytes)
  }

  @Test(arguments: ["", "-1", "1.5G", "12Q", "G", "1 G", "99999999999999999999", "9000000T", "0x10"])
  func otherSizesAreNotSizes(text: String) {
    #expect(RunLimitOptions.size(text) == nil)
  }

  @Test func theOptionsSetTheLimitsAndTheRestKeepTheirDefaults() throws {
    let parsed = try ArgumentParser.parse(["doc.json", "--max-rows", "10", "--max-memory=1G"], as: RunCommand.spec)
    let limits = try RunLimitOptions.limits(parsed)
    #expect(limits.maxRows == 10)
    #expect(limits.maxMemoryBytes == 1 << 30)
    #expect(limits.maxStringBytes == 256 << 20)
  }

  @Test(arguments: [
    (["--max-rows", "lots"], "flow: --max-rows expects a whole number ≥ 0, got 'lots'"),
    (["--max-rows", "-3"], "flow: --max-rows expects a whole number ≥ 0, got '-3'"),
    (["--max-string-bytes", "1.5"], "flow: --max-string-bytes expects a whole number ≥ 0, got '1.5'"),
    (["--max-memory", "0"], "flow: --max-memory expects a size such as 512M, 2G or a number of bytes, got '0'"),
    (["--max-memory", "1.5G"], "flow: --max-memory expects a size such as 512M, 2G or a number of bytes, got '1.5G'"),
    (["--threads", "0"], "flow: --threads expects a whole number from 1 to 256, got '0'"),
    (["--threads", "257"], "flow: --threads expects a whole number from 1 to 256, got '257'"),
    (["--threads", "two"], "flow: --threads expects a whole number from 1 to 256, got 'two'")
  ])
  func aBadValueIsAUsageError(arguments: [String], message: String) async throws {
    let result = try await FlowProcess.run(["run", "-"] + arguments, stdin: Self.doublingChain(2))
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr == message + "\n", "\(result)")
  }

  @Test func aRepeatedLimitOptionIsAUsageError() async throws {
    let result = try await FlowProcess.run(
      ["run", "-", "--max-rows", "1", "--max-rows", "2"], stdin: Self.doublingChain(2))
    #expect(result.status == 64, "\(result)")
  }

  @Test func theStringLimitStopsTheDoublingChainNamingTheOption() async throws {
    let result = try await FlowProcess.run(
      ["run", "-", "--max-string-bytes", "1000", "--format", "json"],
      stdin: Self.doublingChain())
    #expect(result.status == 1, "\(result)")
    let output = try RunCommandTests.RunOutput(parsing: result.stdout)
    #expect(
      output.errors["f8"]
        == "format output would have 1024 bytes, more than the string limit 1000 (raise it with --max-string-bytes)")
    #expect(output.errors["f39"] == "upstream error from f8")
  }

  @Test func theDefaultStringLimitStopsTheDoublingChainToo() async throws {
    let result = try await FlowProcess.run(["run", "-", "--node", "f27"], stdin: Self.doublingChain(28))
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stdout.contains(
        "format output would have 536870912 bytes, more than the string limit 268435456 (raise it with --max-string-bytes)"
      ),
      "\(result.stdout.prefix(500))")
  }

  @Test func theRowLimitFailsAJoinNamingTheOption() async throws {
    let rows = (0..<50).map { _ in #"{"k": 1}"# }.joined(separator: ",")
    let document = #"""
      {"nodes": [{"id": "j", "data": {"kind": "join", "params": {"on": ["k"], "left": [\#(rows)], "right": [\#(rows)]}}}],
       "edges": []}
      """#
    let result = try await FlowProcess.run(["run", "-", "--max-rows", "2000"], stdin: document)
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stdout.contains(
        "join output would have 2500 rows, more than the row limit 2000 (raise it with --max-rows)"),
      "\(result)")
    let raised = try await FlowProcess.run(["run", "-", "--max-rows", "2500"], stdin: document)
    #expect(raised.status == 0, "\(raised)")
  }

  /// A streamed chain (readCSV → filter → writeCSV) holds no whole table, yet a CSV cell past
  /// the string limit fails the read as it does materialized, and nothing is written.
  @Test func aLongCSVCellFailsAStreamedReadNamingTheOption() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-cell-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let csv = "a,b\n1,\"" + String(repeating: "x", count: 2000) + "\"\n2,y\n"
    try csv.write(to: folder.appendingPathComponent("long.csv"), atomically: true, encoding: .utf8)
    let document = #"""
      {"nodes": [
        {"id": "read", "data": {"kind": "readCSV", "params": {"path": "long.csv"}}},
        {"id": "keep", "data": {"kind": "filter", "params": {"where": "a > 0"}}},
        {"id": "save", "data": {"kind": "writeCSV", "params": {"path": "out.csv"}}}],
       "edges": [
        {"id": "e1", "sourceNodeID": "read", "targetNodeID": "keep"},
        {"id": "e2", "sourceNodeID": "keep", "targetNodeID": "save"}]}
      """#
    let path = folder.appendingPathComponent("p.flow.json").path
    try document.write(toFile: path, atomically: true, encoding: .utf8)
    for streaming in [[], ["--no-streaming"]] {
      let result = try await FlowProcess.run(
        ["run", path, "--max-string-bytes", "1000", "--allow-write", folder.path] + streaming)
      #expect(result.status == 1, "\(result)")
      #expect(
        result.stdout.contains(
          "read ! cell 1 of column 'b' has 2000 bytes, more than the string limit 1000 (raise it with --max-string-bytes)"
        ), "\(result)")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.csv").path))
    }
    let raised = try await FlowProcess.run(["run", path, "--max-string-bytes", "2000", "--allow-write", folder.path])
    #expect(raised.status == 0, "\(raised)")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.csv").path))
  }

  @Test func theMemoryLimitFailsAnExpensiveNodeNamingTheOption() async throws {
    let document = #"""
      {"nodes": [{"id": "d", "data": {"kind": "derive", "params": {"columns": {"b": "a + 1"}, "table": [{"a": 1}]}}}],
       "edges": []}
      """#
    let result = try await FlowProcess.run(["run", "-", "--max-memory", "1K"], stdin: document)
    #expect(result.status == 1, "\(result)")
    #expect(result.stdout.contains("is past the memory limit 1.0 KiB (raise it with --max-memory)"), "\(result)")
  }

  @Test func renderWithValuesTakesTheLimitsToo() async throws {
    let result = try await FlowProcess.run(
      ["render", "-", "--values", "--format", "dot", "--max-string-bytes", "10"],
      stdin: Self.doublingChain(3))
    #expect(result.status == 1, "\(result)")
    let usage = try await FlowProcess.run(["render", "-", "--max-rows", "x"], stdin: Self.doublingChain(1))
    #expect(usage.status == 64, "\(usage)")
  }

  /// `--threads` changes how many threads large tables use, never the result: a 40,000-row
  /// pipeline (past the size where a second thread starts) writes the same bytes with 1, 2 and 7.
  @Test func theThreadCountNeverChangesTheResult() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-threads-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var csv = "key,amount,note\n"
    var state: UInt64 = 7
    for row in 0..<40_000 {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      let amount = row % 97 == 0 ? "" : "\(Double(state >> 40) / 1024)"
      csv += "k\(state >> 61),\(amount),\"n, \(row % 13)\"\n"
    }
    try csv.write(to: folder.appendingPathComponent("in.csv"), atomically: true, encoding: .utf8)
    let document = #"""
      {"nodes": [
        {"id": "read", "data": {"kind": "readCSV", "params": {"path": "in.csv"}}},
        {"id": "keep", "data": {"kind": "filter", "params": {"where": "amount > 100 or note == \"n, 3\""}}},
        {"id": "more", "data": {"kind": "derive", "params": {"columns": {"twice": "amount * 2"}}}},
        {"id": "group", "data": {"kind": "groupBy", "params": {"by": ["key", "note"], "aggregate": {"total": "sum(twice)", "rows": "count()"}}}},
        {"id": "save", "data": {"kind": "writeCSV", "params": {"path": "out.csv"}}}],
       "edges": [
        {"id": "e1", "sourceNodeID": "read", "targetNodeID": "keep"},
        {"id": "e2", "sourceNodeID": "keep", "targetNodeID": "more"},
        {"id": "e3", "sourceNodeID": "more", "targetNodeID": "group"},
        {"id": "e4", "sourceNodeID": "group", "targetNodeID": "save"}]}
      """#
    let path = folder.appendingPathComponent("p.flow.json").path
    try document.write(toFile: path, atomically: true, encoding: .utf8)
    var outputs: [Data] = []
    for threads in ["1", "2", "7"] {
      let result = try await FlowProcess.run(["run", path, "--threads", threads])
      #expect(result.status == 0, "\(result)")
      outputs.append(try Data(contentsOf: folder.appendingPathComponent("out.csv")))
    }
    #expect(outputs[0].count > 100)
    #expect(outputs[1] == outputs[0])
    #expect(outputs[2] == outputs[0])
  }
}
