import FlowGraph
import Foundation
import Testing
@testable import FlowCommandLine

/// A subgraph instance on the page: one node naming its definition (`data-subgraph`), whose
/// inside `GET /inside.svg?node=PATH` draws read-only with the inner nodes' values (ids
/// `PATH/<inner>`), nested instances opening in turn; a path that names no instance is refused
/// with the node it names.
@Suite(.serialized) struct ServeInsideTests {
  static let document = """
    {"nodes": [{"id": "twice", "data": {"kind": "quadruple", "params": {"x": 5}}}], "edges": [],
     "flowRuntime": {"subgraphs": {
       "double": {"nodes": [
         {"id": "in", "data": {"kind": "input", "params": {"name": "x"}}},
         {"id": "times", "data": {"kind": "multiply", "params": {"b": 2}}},
         {"id": "out", "data": {"kind": "output", "params": {"name": "y"}}}
       ], "edges": [
         {"id": "a", "sourceNodeID": "in", "targetNodeID": "times", "targetHandleID": "a"},
         {"id": "b", "sourceNodeID": "times", "targetNodeID": "out"}]},
       "quadruple": {"nodes": [
         {"id": "in", "data": {"kind": "input", "params": {"name": "x"}}},
         {"id": "first", "data": {"kind": "double"}},
         {"id": "second", "data": {"kind": "double"}},
         {"id": "out", "data": {"kind": "output", "params": {"name": "y"}}}
       ], "edges": [
         {"id": "a", "sourceNodeID": "in", "targetNodeID": "first", "targetHandleID": "x"},
         {"id": "b", "sourceNodeID": "first", "targetNodeID": "second", "targetHandleID": "x"},
         {"id": "c", "sourceNodeID": "second", "targetNodeID": "out"}]}}}}
    """

  @Test func anInstanceIsOneNodeWhoseInsideOpensWithItsValuesNestedInstancesToo() async throws {
    let served = try await ServeProtocolTests.Served(Self.document)
    let page = try #require(try await served.request("GET", "/graph.svg"))
    #expect(page.body.contains(#"<g class="node instance" data-subgraph="quadruple" data-node="twice">"#))
    #expect(!page.body.contains("data-node=\"twice/"), "the inner nodes are not in the picture itself")

    let inside = try #require(try await served.request("GET", "/inside.svg?node=twice"))
    #expect(inside.status == 200)
    for node in ["twice/in", "twice/first", "twice/second", "twice/out"] {
      #expect(inside.body.contains("data-node=\"\(node)\""), "\(node)")
    }
    #expect(inside.body.contains(#"<g class="node instance" data-subgraph="double" data-node="twice/first">"#))
    #expect(
      inside.body.contains(">y = 10</text>") || inside.body.contains(">y = 20</text>"), "the inner values are shown")
    #expect(!inside.body.contains("<input") && !inside.body.contains("<textarea"), "read-only: no fields")

    let nested = try #require(try await served.request("GET", "/inside.svg?node=twice/second"))
    #expect(nested.status == 200)
    #expect(nested.body.contains("data-node=\"twice/second/times\""))
    #expect(nested.body.contains(">result = 20</text>"), "\(nested.body)")

    let missing = try #require(try await served.request("GET", "/inside.svg?node=twice/third"))
    #expect(missing.status == 404 && missing.body.contains("there is no node 'twice/third'"))
    let plain = try #require(try await served.request("GET", "/inside.svg?node=twice/first/times"))
    #expect(
      plain.status == 400
        && plain.body.contains("node 'twice/first/times' (kind 'multiply') is not a subgraph instance"))
    #expect(try await served.request("GET", "/inside.svg")?.status == 400)
    await served.finish()
  }
}
