import Foundation
import Testing

/// Documents keep their meaning through every writer, hand-written documents are lighter, and
/// `validate`, `export` and `calc` speak the user's terms.
@Suite struct DocumentMeaningCommandTests {
  /// A derive whose second column uses the first: the written order is the meaning.
  static let ordered = #"""
    {"nodes": [{"id": "d", "data": {"kind": "derive", "params": {
       "table": [{"x": 1}, {"x": 2}], "columns": {"z": "x * 10", "a": "z + 1"}}}}],
     "edges": []}
    """#

  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-meaning-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func layoutKeepsADerivesColumnOrder() async throws {
    let before = try await FlowProcess.run(["run", "-"], stdin: Self.ordered)
    #expect(before.status == 0, "\(before)")
    let laidOut = try await FlowProcess.run(["layout", "-"], stdin: Self.ordered)
    #expect(laidOut.status == 0, "\(laidOut)")
    #expect(laidOut.stdout.range(of: "\"z\"")!.lowerBound < laidOut.stdout.range(of: "\"a\"")!.lowerBound)
    let after = try await FlowProcess.run(["run", "-"], stdin: laidOut.stdout)
    #expect(after.status == 0, "\(after)")
    #expect(after.stdout == before.stdout)
    // A second layout of the written document changes no byte.
    let again = try await FlowProcess.run(["layout", "-"], stdin: laidOut.stdout)
    #expect(again.stdout == laidOut.stdout)
  }

  @Test func calcSaveKeepsADerivesColumnOrder() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let saved = folder.appendingPathComponent("saved.flow.json").path
    let session = try await FlowProcess.run(
      ["calc"],
      stdin: """
        node d derive table=[{"x":1},{"x":2}] columns={"z":"x * 10","a":"z + 1","m":"a * 2"}
        save \(saved)

        """)
    #expect(session.status == 0, "\(session)")
    let text = try String(contentsOfFile: saved, encoding: .utf8)
    let z = try #require(text.range(of: "\"z\"")), a = try #require(text.range(of: "\"a\"")),
      m = try #require(text.range(of: "\"m\""))
    #expect(z.lowerBound < a.lowerBound && a.lowerBound < m.lowerBound)
    let run = try await FlowProcess.run(["run", saved])
    #expect(run.status == 0, "\(run)")
  }

  @Test func handWrittenEdgesNeedNoIds() async throws {
    let text = #"""
      {"nodes": [{"id": "a", "data": {"kind": "number", "params": {"value": 2}}},
                 {"id": "b", "data": {"kind": "number", "params": {"value": 3}}},
                 {"id": "s", "data": {"kind": "add"}}],
       "edges": ["a -> s.a", {"sourceNodeID": "b", "targetNodeID": "s", "targetHandleID": "b"}]}
      """#
    let run = try await FlowProcess.run(["run", "-"], stdin: text)
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout.contains("s.result = 5"))
    let laidOut = try await FlowProcess.run(["layout", "-"], stdin: text)
    #expect(laidOut.stdout.contains("\"id\" : \"a->s.a\""))
    #expect(laidOut.stdout.contains("\"id\" : \"b->s.b\""))
  }

  @Test func validateReportsEveryBadFormulaOfADerive() async throws {
    let text = #"""
      {"nodes": [{"id": "d", "data": {"kind": "derive", "params": {
         "columns": {"m": "median(x)", "h": "x // 2", "l": "lag(x)"}}}}], "edges": []}
      """#
    let result = try await FlowProcess.run(["validate", "-"], stdin: text)
    #expect(result.status == 2, "\(result)")
    #expect(result.stderr.contains("column 'm'") && result.stderr.contains("median"), "\(result)")
    #expect(result.stderr.contains("column 'h'"), "\(result)")
    #expect(result.stderr.contains("column 'l'") && result.stderr.contains("lag"), "\(result)")
  }

  @Test func validateWarnsOfAPathARunWouldRefuse() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let inner = folder.appendingPathComponent("docs")
    try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
    try "x\n1\n".write(to: folder.appendingPathComponent("data.csv"), atomically: true, encoding: .utf8)
    let document = inner.appendingPathComponent("report.flow.json")
    try #"{"nodes": [{"id": "r", "data": {"kind": "readCSV", "params": {"path": "../data.csv"}}}], "edges": []}"#
      .write(to: document, atomically: true, encoding: .utf8)
    let result = try await FlowProcess.run(["validate", document.path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("valid"))
    #expect(result.stderr.contains("warning: node 'r'") && result.stderr.contains("--allow-read"), "\(result)")
    let inside = try await FlowProcess.run(["validate", document.path])
    #expect(inside.status == 0)
  }

  @Test func exportInlinesSubgraphInstances() async throws {
    let result = try await FlowProcess.run(["export", TestPaths.example("subgraphs/pipeline.flow.json"), "--sql"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("/"), "inner nodes are named by their path")
  }

  @Test func aNumberNodeOutputsTheIntegerItHolds() async throws {
    let text =
      #"{"nodes": [{"id": "n", "data": {"kind": "number", "params": {"value": 9223372036854775806}}}], "edges": []}"#
    let result = try await FlowProcess.run(["run", "-"], stdin: text)
    #expect(result.stdout == "n.value = 9223372036854775806\n", "\(result)")
  }

  @Test func calcSpeaksInPortsAndSet() async throws {
    let result = try await FlowProcess.run(
      ["calc"],
      stdin: """
        node f filter where="x > 1"
        node total number value=2
        node qty number value=1
        connect total.value qty.value

        """)
    #expect(result.stdout.contains("input 'table' is not connected (it needs a table)"), "\(result)")
    #expect(result.stderr.contains("a number node has no inputs: use set qty value=VALUE"), "\(result)")
  }
}
