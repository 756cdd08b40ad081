import FlowGraph
import Foundation
import Testing
@testable import FlowCommandLine

/// Moving a node from the page: one store mutation per drag (nothing reruns), drawn where it
/// was put, undone and redone as one step, saved with the document.
extension ServeProtocolTests {
  @Test func aMoveIsOneUndoableStoreChangeDrawnWhereItWasPut() async throws {
    let served = try await Served()
    defer { Task { await served.finish() } }
    let store = served.session.engine.store
    let layered = try #require(try await served.request("GET", "/graph.svg")?.body)
    #expect(!layered.contains(#"x="500" y="300""#))
    let revision = store.revision

    let moved = try await served.post("/move", #"{"node": "price", "x": 500, "y": 300}"#)
    #expect(moved.json?["ok"] == true, "\(String(describing: moved.json))")
    #expect(store.node(id: "price")?.position == CGPoint(x: 500, y: 300))
    #expect(store.revision == revision + 1, "one store change")
    let drawn = try #require(try await served.request("GET", "/graph.svg")?.body)
    #expect(Self.box(of: "price", in: drawn) == #"x="500" y="300""#, "the moved box is drawn at its position")
    #expect(
      Self.box(of: "quantity", in: drawn) == Self.box(of: "quantity", in: layered), "the others keep their places")

    #expect(try await served.post("/undo").json?["done"] == true)
    #expect(store.node(id: "price")?.position == CGPoint(x: 0, y: 0))
    let undone = try #require(try await served.request("GET", "/graph.svg")?.body)
    #expect(
      Self.box(of: "price", in: undone) == Self.box(of: "price", in: layered), "undone: back in the layered layout")
    #expect(try await served.post("/redo").json?["done"] == true)
    #expect(store.node(id: "price")?.position == CGPoint(x: 500, y: 300))

    #expect(try await served.post("/save").status == 200)
    let saved = try JSONValue.parse(Array(try Data(contentsOf: served.file)))
    let price = saved["nodes"]?.arrayValue?.first { $0["id"] == "price" }
    #expect(price?["position"] == .array([.integer(500), .integer(300)]), "\(String(describing: price))")
  }

  @Test func aMoveOutsideTheLimitsOrOfNoNodeIsRefused() async throws {
    let served = try await Served()
    defer { Task { await served.finish() } }
    let revision = served.session.engine.store.revision
    let negative = try await served.post("/move", #"{"node": "price", "x": -5, "y": 3}"#)
    #expect(negative.json?["ok"] == false)
    #expect(
      negative.json?["error"]?.stringValue?.contains("node 'price'") == true, "\(String(describing: negative.json))")
    #expect(
      try await served.post("/move", #"{"node": "nope", "x": 5, "y": 3}"#).json?["error"] == "there is no node 'nope'")
    #expect(try await served.post("/move", #"{"node": "price", "x": "5", "y": 3}"#).status == 400)
    #expect(try await served.post("/move", #"{"node": "price", "x": 1e300, "y": 3}"#).json?["ok"] == false)
    #expect(served.session.engine.store.revision == revision, "nothing changed")
  }

  /// The `x`/`y` attributes of node `id`'s box in `svg`.
  static func box(of id: String, in svg: String) -> String? {
    guard let start = svg.range(of: "data-node=\"\(id)\"><rect class=\"body\" ") else { return nil }
    let rest = svg[start.upperBound...]
    guard let width = rest.range(of: " width=") else { return nil }
    return String(rest[..<width.lowerBound])
  }
}
