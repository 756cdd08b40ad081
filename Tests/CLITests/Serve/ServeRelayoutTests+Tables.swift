import FlowGraph
import Foundation
import Testing
@testable import FlowCommandLine

/// The page shows a table's columns and first rows in its node, and draws them again when they
/// change, even when the new rows are as long as the old ones.
extension ServeRelayoutTests {
  @Test func tablePreviewsAreDrawnAndFollowTheirRows() async throws {
    let csv = "k,x\n" + (1...50).map { "\($0),\($0 * 10)\n" }.joined()
    let served = try await ServeProtocolTests.Served(
      """
      {"nodes": [
        {"id": "read", "data": {"kind": "readCSV", "params": {"path": "data.csv"}}},
        {"id": "big", "data": {"kind": "limit", "params": {"count": 20, "offset": 1}}}
      ], "edges": ["read -> big"]}
      """, files: ["data.csv": csv])
    defer { Task { await served.finish() } }
    let page = try #require(try await served.request("GET", "/"))
    let rows = Self.previewLines(page.body)
    #expect(rows.first?.hasPrefix("k") == true && rows.dropFirst().first?.hasPrefix("2 ") == true, "\(rows)")
    #expect(page.body.contains(".node .table {"), "the page styles them")

    let events = try served.openEvents()
    let initial = try #require(await ServeProtocolTests.event(events))
    guard case .integer(let drawn)? = initial["structure"] else { Issue.record("no structure in \(initial)"); return }
    // offset 1 → 2: rows 3… instead of 2…, of the same lengths, and only a number edited.
    let edit = try await served.post("/edit", #"{"node": "big", "param": "offset", "value": "2"}"#)
    #expect(edit.json?["ok"] == true, "\(edit)")
    let pass = try #require(await ServeProtocolTests.pass(events, revision: edit.json?["revision"]))
    // The new structure comes with the pass or right after it.
    var structure = pass["structure"]
    if structure == .integer(drawn) { structure = await ServeProtocolTests.event(events)?["structure"] }
    guard case .integer(let relaid)? = structure else { Issue.record("expected a new structure after \(pass)"); return }
    #expect(relaid > drawn)
    let picture = try #require(try await served.request("GET", "/graph.svg"))
    #expect(Self.previewLines(picture.body).contains { $0.hasPrefix("3 ") }, "\(Self.previewLines(picture.body))")
  }

  /// The texts of the `big` node's preview lines (`<text class="table" …>line</text>`), trimmed.
  static func previewLines(_ svg: String) -> [String] {
    guard let node = svg.range(of: "data-node=\"big\"") else { return [] }
    let rest = svg[node.upperBound...]
    let end = rest.range(of: "</g>")?.lowerBound ?? rest.endIndex
    return rest[..<end].components(separatedBy: "<text class=\"table\"").dropFirst().compactMap { piece in
      guard let open = piece.firstIndex(of: ">"), let close = piece.range(of: "</text>") else { return nil }
      return piece[piece.index(after: open)..<close.lowerBound].trimmingCharacters(in: .whitespaces)
    }
  }
}
