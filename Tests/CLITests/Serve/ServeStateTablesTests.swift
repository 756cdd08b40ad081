import FlowGraph
import FlowRuntime
import Foundation
import Testing
@testable import FlowCommandLine

/// `/state.json` summarizes tables (rows, columns, types, first 10 rows) and pages one on
/// request, so a response never grows with the data.
@Suite(.serialized) struct ServeStateTablesTests {
  static let pipeline = """
    {"nodes": [
      {"id": "read", "data": {"kind": "readCSV", "params": {"path": "data.csv"}}},
      {"id": "big", "data": {"kind": "filter", "params": {"where": "x > 10"}}}
    ], "edges": [
      {"id": "e1", "sourceNodeID": "read", "targetNodeID": "big"}
    ]}
    """

  /// The pipeline served over `rows` rows of `k,x` (x = 10 k).
  static func served(rows: Int) async throws -> ServeProtocolTests.Served {
    let csv = "k,x\n" + (1...rows).map { "\($0),\($0 * 10)\n" }.joined()
    return try await ServeProtocolTests.Served(Self.pipeline, files: ["data.csv": csv])
  }

  @Test func tablesAreSummarizedWithTheirFirstTenRows() async throws {
    let served = try await Self.served(rows: 50)
    defer { Task { await served.finish() } }
    let state = try #require(try await served.state())
    let table = try #require(state["outputs"]?["big"]?["table"]?["table"])
    #expect(table["rows"] == .integer(49))
    #expect(
      table["columns"] == .array([.object(["name": "k", "type": "integer"]), .object(["name": "x", "type": "integer"])])
    )
    let head = try #require(table["head"]?.arrayValue)
    #expect(head.count == 10)
    #expect(head.first == .object(["k": .integer(2), "x": .integer(20)]))
  }

  @Test func oneTableIsPagedOnRequest() async throws {
    let served = try await Self.served(rows: 50)
    defer { Task { await served.finish() } }
    let response = try #require(try await served.request("GET", "/state.json?node=big&port=table&offset=40&rows=5"))
    #expect(response.status == 200, "\(response.body)")
    let page = try JSONValue.parse(Array(response.body.utf8))
    #expect(page["rows"] == .integer(49) && page["offset"] == .integer(40) && page["port"] == "table")
    #expect(
      page["data"] == .array((42...46).map { .object(["k": .integer(Int64($0)), "x": .integer(Int64($0 * 10))]) }))
    // The port may be left out when the node has one table; past the end is an empty page.
    let end = try #require(try await served.request("GET", "/state.json?node=big&offset=1000"))
    #expect(end.status == 200)
    #expect(try JSONValue.parse(Array(end.body.utf8))["data"] == .array([]))
  }

  @Test(arguments: [
    ("node=nothing", "'node'"),
    ("port=table", "'node' is missing"),
    ("node=big&rows=10001", "'rows'"),
    ("node=big&rows=-1", "'rows'"),
    ("node=big&offset=x", "'offset'"),
    ("node=big&port=nope", "'port'"),
    ("node=big&colour=red", "'colour'"),
    ("node=big&node=read", "'node' given twice"),
    ("node=%zz", "percent escape")
  ])
  func badParametersAreRefusedNamingTheParameter(query: String, named: String) async throws {
    let served = try await Self.served(rows: 5)
    defer { Task { await served.finish() } }
    let response = try #require(try await served.request("GET", "/state.json?" + query))
    #expect(response.status == 400, "\(response)")
    #expect(response.body.contains(named), "\(response.body)")
  }

  /// A million rows in, well under a megabyte out: the summary holds 10 rows.
  @Test func aMillionRowTableKeepsTheStateSmall() throws {
    let table = try Table([
      ("k", Column(.integer(Array(Int64(0)..<1_000_000)))), ("x", Column(.number((0..<1_000_000).map(Double.init))))
    ])
    let summary = ServeTables.json(.table(table)).serialized(options: [])
    #expect(summary.utf8.count < 1_000, "\(summary.utf8.count) bytes")
    #expect(summary.contains("\"rows\":1000000"))
  }
}

/// Values that are not tables are bounded too: long texts, lists and records are summarized.
extension ServeStateTablesTests {
  static let values = """
    {"nodes": [
      {"id": "list", "data": {"kind": "readJSON", "params": {"path": "list.json"}}},
      {"id": "text", "data": {"kind": "readText", "params": {"path": "long.txt"}}},
      {"id": "small", "data": {"kind": "readJSON", "params": {"path": "small.json"}}}
    ], "edges": []}
    """

  @Test func longTextsListsAndRecordsAreSummarizedInPlace() async throws {
    let list = "[" + (0..<200_000).map { "\"item \($0)\"" }.joined(separator: ",") + "]"
    let long = String(repeating: "é", count: 300_000)
    let served = try await ServeProtocolTests.Served(
      Self.values,
      files: [
        "list.json": list, "long.txt": long, "small.json": #"{"a": [1, 2, "three"], "b": {"c": null}}"#
      ])
    defer { Task { await served.finish() } }
    let response = try #require(try await served.request("GET", "/state.json"))
    #expect(response.status == 200)
    #expect(response.body.utf8.count < 200_000, "\(response.body.utf8.count) bytes: bounded, not the 2.8 MB list")
    let state = try JSONValue.parse(Array(response.body.utf8))
    let summary = try #require(state["outputs"]?["list"]?["value"]?["list"])
    #expect(summary["count"] == .integer(200_000))
    let head = try #require(summary["head"]?.arrayValue)
    #expect(head.count > 100 && head.count < 10_000 && head.first == "item 0")
    let text = try #require(state["outputs"]?["text"]?["text"]?["text"])
    #expect(text["bytes"] == .integer(600_000))
    #expect(text["head"] == .string(String(repeating: "é", count: 500)), "1,000 bytes, whole characters")
    #expect(
      state["outputs"]?["small"]?["value"] == .object(["a": .array([1, 2, "three"]), "b": .object(["c": .null])]),
      "small values as they are")
  }
}
