import FlowGraph
import Foundation
import Testing
@testable import FlowCommandLine

/// `flow serve` of documents an editor meets: an empty one (no pass to wait for) and one whose
/// subgraph kinds are imported from another file.
@Suite(.serialized) struct ServeDocumentKindsTests {
  @Test func anEmptyDocumentIsServedAndStops() async throws {
    let served = try await ServeProtocolTests.Served(#"{"nodes": [], "edges": []}"#)
    let state = try #require(try await served.state())
    #expect(state["outputs"] == .object([:]) && state["errors"] == .object([:]))
    let page = try await served.request("GET", "/")
    #expect(page?.status == 200)
    await served.finish()
  }

  @Test func aDocumentWithImportedSubgraphKindsIsServed() async throws {
    let library = """
      {"nodes": [], "edges": [], "flowRuntime": {"subgraphs": {"double": {
        "nodes": [
          {"id": "in", "data": {"kind": "input", "params": {"name": "x"}}},
          {"id": "times", "data": {"kind": "multiply", "params": {"b": 2}}},
          {"id": "out", "data": {"kind": "output", "params": {"name": "y"}}}
        ], "edges": [
          {"id": "a", "sourceNodeID": "in", "targetNodeID": "times", "targetHandleID": "a"},
          {"id": "b", "sourceNodeID": "times", "targetNodeID": "out"}
        ]}}}}
      """
    let document = """
      {"nodes": [{"id": "twice", "data": {"kind": "double", "params": {"x": 21}}}], "edges": [],
       "flowRuntime": {"imports": ["library.flow.json"]}}
      """
    let served = try await ServeProtocolTests.Served(document, files: ["library.flow.json": library])
    let state = try #require(try await served.state())
    #expect(
      state["outputs"]?["twice"]?["y"] == .integer(42) || state["outputs"]?["twice"]?["y"] == .number(42), "\(state)")
    let page = try await served.request("GET", "/")
    #expect(page?.body.contains("data-node=\"twice\"") == true)
    await served.finish()
  }
}
