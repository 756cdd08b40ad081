import Testing

import FlowGraph
import FlowTestSupport

@Suite struct UniqueIDRuleTests {
  @Test func uniqueIDsAreAccepted() {
    let document = FlowDocument(nodes: [.node("a", "number"), .node("b", "pass")], edges: [.edge("e1", "a", "b")])
    #expect(document.validationIssues() == [])
  }

  @Test func duplicateNodeIDsAreReportedWithTheID() {
    let document = FlowDocument(nodes: [.node("a", "number"), .node("b", "number"), .node("a", "number")])
    let issues = document.validationIssues()
    #expect(issues.count == 1)
    #expect(issues.first?.code == .duplicateNodeID)
    #expect(issues.first?.nodeIDs == ["a"])
    #expect(issues.first?.edgeID == nil)
    #expect(issues.first?.message == "duplicate node id 'a' (nodes[2])")
  }

  @Test func everyRepeatOfANodeIDIsReported() {
    let document = FlowDocument(nodes: [
      .node("a", "number"), .node("a", "number"), .node("a", "number"),
      .node("b", "number"), .node("b", "number")
    ])
    let issues = document.validationIssues()
    #expect(issues.map(\.code) == [.duplicateNodeID, .duplicateNodeID, .duplicateNodeID])
    #expect(issues.map(\.nodeIDs) == [["a"], ["a"], ["b"]])
    #expect(
      issues.map(\.message) == [
        "duplicate node id 'a' (nodes[1])", "duplicate node id 'a' (nodes[2])",
        "duplicate node id 'b' (nodes[4])"
      ])
  }

  @Test func duplicateEdgeIDsAreReportedWithTheID() {
    let document = FlowDocument(
      nodes: [.node("a", "number"), .node("sum", "add")],
      edges: [.edge("e", "a", "sum.a"), .edge("e", "a", "sum.b")])
    let issues = document.validationIssues()
    #expect(issues.count == 1)
    #expect(issues.first?.code == .duplicateEdgeID)
    #expect(issues.first?.edgeID == "e")
    #expect(issues.first?.nodeIDs == [])
    #expect(issues.first?.message == "duplicate edge id 'e' (edges[1])")
  }

  @Test func aNodeAndAnEdgeMayShareAnID() {
    let document = FlowDocument(nodes: [.node("x", "number"), .node("y", "pass")], edges: [.edge("x", "x", "y")])
    #expect(document.validationIssues() == [])
  }

  @Test func duplicateNodeAndEdgeIDsAreReportedTogether() {
    let document = FlowDocument(
      nodes: [.node("a", "number"), .node("a", "number"), .node("b", "add")],
      edges: [.edge("e", "a", "b.a"), .edge("e", "a", "b.b")])
    #expect(document.validationIssues().map(\.code) == [.duplicateNodeID, .duplicateEdgeID])
  }

  @Test func idsDifferingOnlyInCaseAreDistinct() {
    let document = FlowDocument(nodes: [.node("a", "number"), .node("A", "number")])
    #expect(document.validationIssues() == [])
  }
}
