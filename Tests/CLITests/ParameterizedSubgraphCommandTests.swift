import Foundation
import Testing

/// A subgraph parameterized through its `input`s: a threshold (`@threshold` in a formula), a key
/// list (`groupBy.by`) and a path (`readCSV.path`), each fed by an edge into a param or scalar
/// input of an inner node (`Examples/subgraphs/thresholds.flow.json`, and a document written here).
@Suite struct ParameterizedSubgraphCommandTests {
  static func table(_ stdout: String, _ node: String, _ port: String) throws -> [[String: Any]] {
    let root = try #require(try parseJSON(stdout) as? [String: Any])
    let outputs = try #require(root["outputs"] as? [String: [String: Any]])
    return try #require(outputs[node]?[port] as? [[String: Any]])
  }

  @Test func oneLateShareRunsWithTwoThresholdsAndTwoKeyLists() async throws {
    let result = try await FlowProcess.run([
      "run", TestPaths.example("subgraphs/thresholds.flow.json"), "--format", "json"
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let late15 = try Self.table(result.stdout, "late15", "share")
    let late60 = try Self.table(result.stdout, "late60", "share")
    let byOrigin = try Self.table(result.stdout, "byOrigin", "share")
    #expect(late15.map { $0["carrier"] as? String } == ["AA", "UA", "DL", "B6"])
    #expect(late15.map { $0["lateShare"] as? Double } == [0.5, 1.0 / 3, 1, 0.5])
    #expect(late60.map { $0["lateShare"] as? Double } == [0, 1.0 / 3, 0.5, 0])
    #expect(late15.map { $0["flights"] as? Int } == [2, 3, 2, 2])  // DL's blank delay is left out
    #expect(byOrigin.map { $0["origin"] as? String } == ["JFK", "LGA", "EWR"])
    #expect(byOrigin.map { $0["lateShare"] as? Double } == [0.6, 0.5, 0.5])
  }

  @Test func theExamplePrintsItsExpectedOutput() async throws {
    let result = try await FlowProcess.run(["run", TestPaths.example("subgraphs/thresholds.flow.json")])
    #expect(result.status == 0, "\(result.stderr)")
    let expected = try String(contentsOfFile: TestPaths.example("subgraphs/thresholds.expected.txt"), encoding: .utf8)
    #expect(result.stdout == expected)
  }

  @Test(arguments: ["duckdb", "spark", "trino", "postgres"])
  func theExampleExportsWithItsThresholdsAndKeysAsLiteralsAndIdentifiers(dialect: String) async throws {
    let result = try await FlowProcess.run([
      "export", TestPaths.example("subgraphs/thresholds.flow.json"), "--sql", "--dialect", dialect
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let quote = dialect == "spark" ? "`" : "\""
    // One definition, three pipelines: 15 and 60 as literals, `by` as the column it names.
    #expect(result.stdout.contains("15.0E0") && result.stdout.contains("60.0E0"), "\(result.stdout)")
    #expect(
      result.stdout.contains("\(quote)late15/share\(quote)") && result.stdout.contains("\(quote)byOrigin/share\(quote)")
    )
    #expect(result.stdout.contains("GROUP BY \(quote)origin\(quote)"), "\(result.stdout)")
    #expect(!result.stdout.contains("@"))
  }

  @Test func anInputFedByARowCountIsRefusedNamingTheNodeAndTheInput() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parameterized-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try "x\n1\n2\n".write(to: folder.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
    let document = """
      {"nodes": [
         {"id": "t", "data": {"kind": "readCSV", "params": {"path": "t.csv"}}},
         {"id": "n", "data": {"kind": "rowCount", "params": {}}},
         {"id": "above", "data": {"kind": "over", "params": {}}}],
       "edges": ["t -> n", "t -> above.rows", "n -> above.limit"],
       "flowRuntime": {"subgraphs": {"over": {"nodes": [
         {"id": "rows", "data": {"kind": "input", "params": {"name": "rows", "type": "table"}}},
         {"id": "limit", "data": {"kind": "input", "params": {"name": "limit", "type": "integer"}}},
         {"id": "keep", "data": {"kind": "filter", "params": {"where": "x >= @limit"}}},
         {"id": "out", "data": {"kind": "output", "params": {"name": "kept"}}}],
         "edges": ["rows -> keep.table", "limit -> keep.limit", "keep -> out"]}}}}
      """
    let path = folder.appendingPathComponent("fed.flow.json")
    try document.write(to: path, atomically: true, encoding: .utf8)
    let result = try await FlowProcess.run(["export", path.path, "--sql", "--node", "above"])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "flow: cannot export to duckdb: node 'above/keep': input 'limit' comes from 'n' (rowCount), which is not a constant"
      ),
      "\(result.stderr)")
  }

  @Test func anInputSetsThePathOfAnInnerReader() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parameterized-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try "x\n1\n2\n".write(to: folder.appendingPathComponent("small.csv"), atomically: true, encoding: .utf8)
    try "x\n1\n2\n3\n4\n".write(to: folder.appendingPathComponent("large.csv"), atomically: true, encoding: .utf8)
    let document = """
      {"nodes": [
         {"id": "small", "data": {"kind": "rows", "params": {"file": "small.csv"}}},
         {"id": "large", "data": {"kind": "rows", "params": {"file": "large.csv"}}}],
       "edges": [],
       "flowRuntime": {"subgraphs": {"rows": {"nodes": [
         {"id": "file", "data": {"kind": "input", "params": {"name": "file", "type": "string"}}},
         {"id": "read", "data": {"kind": "readCSV", "params": {"path": "missing.csv"}}},
         {"id": "count", "data": {"kind": "rowCount", "params": {}}},
         {"id": "n", "data": {"kind": "output", "params": {"name": "n"}}}],
         "edges": ["file.value -> read.path", "read.table -> count.table", "count -> n.value"]}}}}
      """
    let path = folder.appendingPathComponent("paths.flow.json")
    try document.write(to: path, atomically: true, encoding: .utf8)
    let result = try await FlowProcess.run(["run", path.path, "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let root = try #require(try parseJSON(result.stdout) as? [String: Any])
    let outputs = try #require(root["outputs"] as? [String: [String: Any]])
    #expect(outputs["small"]?["n"] as? Int == 2)
    #expect(outputs["large"]?["n"] as? Int == 4)
  }
}
