import FlowGraph
import Foundation
import Testing

@testable import FlowCommandLine

/// The page's Save writes through the store and keeps the document's meaning.
extension ServeProtocolTests {
  @Test func saveKeepsADerivesColumnOrderAndUnknownKeys() async throws {
    let text = #"""
      {"nodes": [{"id": "d", "note": {"b": 1, "a": 2}, "data": {"kind": "derive", "params": {
         "table": [{"x": 1}, {"x": 2}], "columns": {"z": "x * 10", "a": "z + 1"}}}}],
       "edges": [], "flowRuntime": {"formatVersion": 1, "editor": {"theme": "dark"}}}
      """#
    let served = try await Served(text)
    defer { Task { await served.finish() } }
    #expect(try await served.post("/save").status == 200)
    let saved = try String(contentsOf: served.file, encoding: .utf8)
    let z = try #require(saved.range(of: "\"z\" : \"x * 10\"")), a = try #require(saved.range(of: "\"a\" : \"z + 1\""))
    #expect(z.lowerBound < a.lowerBound, "the columns keep their order")
    let json = try JSONValue.parse(Array(saved.utf8))
    #expect(json["nodes"]?.arrayValue?.first?["note"]?.objectValue?.keys == ["b", "a"])
    #expect(json["flowRuntime"]?["editor"]?["theme"] == .string("dark"))
    let before = try await FlowProcess.run(["run", "-"], stdin: text)
    let after = try await FlowProcess.run(["run", served.file.path])
    #expect(after.status == 0 && after.stdout == before.stdout, "\(after)")
  }
}
