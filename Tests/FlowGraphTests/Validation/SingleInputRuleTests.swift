import Testing

import FlowGraph
import FlowTestSupport

@Suite struct SingleInputRuleTests {
  @Test func twoEdgesIntoOneInputNameBothEdgesTheNodeAndTheHandle() {
    let document = FlowDocument(
      nodes: [.node("a", "number"), .node("b", "number"), .node("sum", "add")],
      edges: [.edge("e1", "a", "sum.a"), .edge("e2", "b", "sum.a")])
    let issues = document.validationIssues()
    #expect(issues.count == 1)
    #expect(issues.first?.code == .inputAlreadyConnected)
    #expect(issues.first?.nodeIDs == ["sum"])
    #expect(issues.first?.edgeID == "e2")
    #expect(issues.first?.handleID == "a")
    #expect(issues.first?.message == "input 'a' of node 'sum' has 2 edges (e1, e2); an input takes one")
  }

  @Test func threeEdgesIntoOneInputAreOneIssueNamingAllThree() {
    let document = FlowDocument(
      nodes: [
        .node("x", "number"), .node("y", "number"), .node("z", "number"),
        .node("p", "pass")
      ],
      edges: [.edge("e3", "z", "p"), .edge("e1", "x", "p"), .edge("e2", "y", "p.in")])
    let issues = document.validationIssues()
    #expect(issues.map(\.code) == [.inputAlreadyConnected])
    #expect(issues.first?.edgeID == "e1")
    #expect(issues.first?.message == "input 'in' of node 'p' has 3 edges (e3, e1, e2); an input takes one")
  }

  @Test func overfullInputsAreReportedInNodeThenPortOrderWhateverTheEdgeOrder() {
    let document = FlowDocument(
      nodes: [.node("a", "number"), .node("sum", "add"), .node("p", "pass")],
      edges: [
        .edge("e1", "a", "p"), .edge("e2", "a", "sum.b"), .edge("e3", "a", "sum.b"),
        .edge("e4", "a", "p"), .edge("e5", "a", "sum.a"), .edge("e6", "a", "sum.a")
      ])
    #expect(
      document.validationIssues().map(\.message) == [
        "input 'a' of node 'sum' has 2 edges (e5, e6); an input takes one",
        "input 'b' of node 'sum' has 2 edges (e2, e3); an input takes one",
        "input 'in' of node 'p' has 2 edges (e1, e4); an input takes one"
      ])
  }

  @Test func edgesIntoDifferentInputsAreAccepted() {
    let document = FlowDocument(
      nodes: [.node("a", "number"), .node("sum", "add")],
      edges: [.edge("e1", "a", "sum.a"), .edge("e2", "a", "sum.b")])
    #expect(document.validationIssues() == [])
  }

  @Test func oneOutputMayFeedManyInputs() {
    let document = FlowDocument(
      nodes: [.node("a", "number"), .node("p", "pass"), .node("q", "pass"), .node("r", "pass")],
      edges: [.edge("e1", "a", "p"), .edge("e2", "a", "q"), .edge("e3", "a", "r")])
    #expect(document.validationIssues() == [])
  }

  @Test func aHandleLessEdgeAndANamedEdgeIntoTheSameInputConflict() {
    let document = FlowDocument(
      nodes: [.node("a", "number"), .node("b", "number"), .node("p", "pass")],
      edges: [.edge("named", "a.value", "p.in"), .edge("bare", "b", "p")])
    let issues = document.validationIssues()
    #expect(issues.map(\.code) == [.inputAlreadyConnected])
    #expect(issues.first?.message.contains("(named, bare)") == true)
  }

  @Test func eachOverfullInputIsReported() {
    let document = FlowDocument(
      nodes: [.node("a", "number"), .node("sum", "add"), .node("p", "pass")],
      edges: [
        .edge("e1", "a", "sum.a"), .edge("e2", "a", "sum.a"), .edge("e3", "a", "sum.b"),
        .edge("e4", "sum", "p"), .edge("e5", "a", "p")
      ])
    let issues = document.validationIssues()
    #expect(issues.map(\.code) == [.inputAlreadyConnected, .inputAlreadyConnected])
    #expect(issues.map(\.nodeIDs) == [["sum"], ["p"]])
    #expect(issues.map(\.handleID) == ["a", "in"])
  }
}
