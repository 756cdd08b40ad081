import FlowGraph
import Foundation
import Testing

/// The page dims what an `if` did not take, as `flow render --values` does.
extension ServeProtocolTests {
  static let discount = try! String(
    contentsOf: TestPaths.packageRoot.appendingPathComponent("Examples/discount.flow.json"),
    encoding: .utf8)

  // quantity 10 (subtotal 125: bulk) ─ the page: shipping dimmed ─ quantity 2 (25) ─ discounted dimmed
  @Test func theBranchAnIfDidNotTakeIsDimmedAndFollowsTheCondition() async throws {
    let served = try await Served(Self.discount)
    defer { Task { await served.finish() } }
    let events = try served.openEvents()
    let initial = await Self.event(events)
    #expect(Self.strings(initial?["notNeeded"]) == ["shipping"])
    let page = try await served.request("GET", "/")
    #expect(page?.body.contains(".node.not-needed { opacity: 0.4; }") == true, "the page dims them")

    let edit = try await served.post("/edit", #"{"node": "quantity", "param": "value", "value": "2"}"#)
    #expect(edit.status == 200)
    let pass = await Self.pass(events, revision: edit.json?["revision"])
    #expect(Self.strings(pass?["notNeeded"]) == ["discounted"])
    let ran = Self.strings(pass?["ran"])
    #expect(ran.contains("shipping"), "the branch now taken ran: \(ran)")
    #expect(pass?["values"]?["total"]?["value"] == "29.95")
  }
}
