import FlowGraph
import Foundation
import Testing
@testable import FlowCommandLine

/// Shaping the graph from the page: add from the palette, connect (replacing an occupied
/// input), refusals with the store's message, delete — each one store change and one pass.
extension ServeProtocolTests {
  @Test func thePageAddsConnectsAndDeletesNodesThroughTheStore() async throws {
    let served = try await Served()
    defer { Task { await served.finish() } }
    let page = try #require(try await served.request("GET", "/"))
    for marker in [
      "<select data-action=\"add\"", "<option data-kind=\"add\" data-required=\"\">add</option>", ">readCSV</option>",
      "data-out=\"result\"", "data-in=\"a\""
    ] {
      #expect(page.body.contains(marker), "the page holds \(marker)")
    }
    let events = try served.openEvents()
    _ = await Self.event(events)

    let added = try await served.post("/add", #"{"kind": "add"}"#)
    #expect(added.json?["ok"] == true && added.json?["id"] == "add1", "\(String(describing: added.json))")
    #expect(try await served.post("/add", #"{"kind": "add"}"#).json?["id"] == "add2")

    let connected = try await served.post(
      "/connect", #"{"source": "price", "sourcePort": "value", "target": "add1", "targetPort": "a"}"#)
    #expect(connected.json?["ok"] == true, "\(String(describing: connected.json))")
    let pass = await Self.pass(events, revision: connected.json?["revision"])
    #expect(Self.strings(pass?["ran"]) == ["add1"], "only the connected node ran")
    #expect(pass?["values"]?["add1"]?["result"] == "12.5")

    // Into an occupied input: the old edge goes in the same change.
    let replaced = try await served.post(
      "/connect", #"{"source": "quantity", "sourcePort": "value", "target": "add1", "targetPort": "a"}"#)
    #expect(replaced.json?["ok"] == true)
    #expect(served.session.engine.store.incomingEdges(of: "add1").map(\.sourceNodeID) == ["quantity"])

    // A cycle and a type mismatch are refused with the store's message and change nothing.
    let revision = served.session.engine.store.revision
    let cycle = try await served.post(
      "/connect", #"{"source": "total", "sourcePort": "result", "target": "subtotal", "targetPort": "a"}"#)
    #expect(cycle.json?["ok"] == false)
    #expect(cycle.json?["error"]?.stringValue?.contains("cycle") == true, "\(String(describing: cycle.json))")
    #expect(try await served.post("/add", #"{"kind": "rowCount"}"#).json?["id"] == "rowCount1")
    let mismatch = try await served.post(
      "/connect", #"{"source": "price", "sourcePort": "value", "target": "rowCount1", "targetPort": "table"}"#)
    #expect(mismatch.json?["ok"] == false, "\(String(describing: mismatch.json))")
    #expect(mismatch.json?["error"]?.stringValue?.contains("table") == true, "\(String(describing: mismatch.json))")
    #expect(
      served.session.engine.store.incomingEdges(of: "subtotal").map(\.sourceNodeID).sorted() == ["price", "quantity"])
    #expect(served.session.engine.store.revision == revision + 1, "only the rowCount node was added")

    // Required params come with the addition, read as the page's fields read them.
    let filter = try await served.post("/add", #"{"kind": "filter", "params": {"where": "value > 1"}}"#)
    #expect(filter.json?["ok"] == true, "\(String(describing: filter.json))")
    #expect(served.session.engine.store.node(id: "filter1")?.data.params["where"] == "value > 1")
    let grouped = try await served.post(
      "/add",
      #"{"kind": "groupBy", "params": {"by": "[\"k\"]", "aggregate": "{\"z\": \"count()\", \"a\": \"sum(x)\"}"}}"#)
    #expect(grouped.json?["ok"] == true, "\(String(describing: grouped.json))")
    #expect(
      served.session.engine.store.node(id: "groupBy1")?.data.params["aggregate"]?.objectValue?.members.map(\.key) == [
        "z", "a"
      ])
    #expect(try await served.post("/add", #"{"kind": "filter"}"#).json?["ok"] == false, "where is required")
    #expect(try await served.post("/add", #"{"kind": "number"}"#).json?["id"] == "number1")
    #expect(
      served.session.engine.store.node(id: "number1")?.data.params["value"] == .integer(0),
      "a default written out, so the page shows the field")
    #expect(
      try await served.post("/add", #"{"kind": "groupBy", "params": {"by": "k"}}"#).json?["error"]
        == "groupBy.by: expects a JSON list, such as [\"a\", \"b\"]")
    #expect(page.body.contains(#"<option data-kind="filter" data-required="where:string">filter</option>"#))

    let unknown = try await served.post("/add", #"{"kind": "nope"}"#)
    #expect(unknown.json?["ok"] == false && unknown.json?["error"]?.stringValue?.contains("nope") == true)

    let deleted = try await served.post("/delete", #"{"node": "add1"}"#)
    #expect(deleted.json?["ok"] == true)
    #expect(served.session.engine.store.node(id: "add1") == nil)
    #expect(served.session.engine.store.outgoingEdges(of: "quantity").allSatisfy { $0.targetNodeID != "add1" })
    #expect(try await served.post("/delete", #"{"node": "add1"}"#).json?["ok"] == false)
    #expect(try await served.post("/delete", #"{"what": 1}"#).status == 400)
  }
}
