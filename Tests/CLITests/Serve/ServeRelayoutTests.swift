import FlowGraph
import Foundation
import Testing
@testable import FlowCommandLine

/// After values arrive that need bigger boxes, the page's picture is laid out again (the
/// structure is bumped and the new picture holds the new values), so no text runs over another
/// node; values that fit the drawn boxes change nothing but the texts.
@Suite(.serialized) struct ServeRelayoutTests {
  @Test func valuesNeedingBiggerBoxesLayThePictureOutAgain() async throws {
    let served = try await ServeProtocolTests.Served()
    defer { Task { await served.finish() } }
    _ = try await served.request("GET", "/")  // the picture is drawn with the first values
    let events = try served.openEvents()
    let initial = try #require(await ServeProtocolTests.event(events))
    guard case .integer(let drawn)? = initial["structure"] else { Issue.record("no structure in \(initial)"); return }

    // Values of the same drawn lengths (12.5 → 17.5, 50 → 70, 10 → 14, 60 → 84, 20 → 28): no new picture.
    let same = try await served.post("/edit", #"{"node": "price", "param": "value", "value": "17.5"}"#)
    let quiet = await ServeProtocolTests.pass(events, revision: same.json?["revision"])
    #expect(quiet?["structure"] == .integer(drawn))

    // A much longer value: the pass is followed by a new structure, and the picture has it.
    let long = try await served.post("/edit", #"{"node": "price", "param": "value", "value": "123456789.125"}"#)
    let pass = await ServeProtocolTests.pass(events, revision: long.json?["revision"])
    #expect(pass?["values"]?["total"]?["result"] != nil)
    let next = try #require(await ServeProtocolTests.event(events))
    guard case .integer(let relaid)? = next["structure"] else {
      Issue.record("expected a structure event, got \(next)"); return
    }
    #expect(relaid > drawn)
    let picture = try #require(try await served.request("GET", "/graph.svg"))
    #expect(picture.body.contains("123456789.125"), "the new picture is drawn with the new values")
  }
}
