import Testing

import FlowGraph
import FlowTestSupport

/// One problem must not hide another: every rule sees what it needs even when an earlier rule
/// rejected the same edge or node (Reference.md, "Validation", "reports all problems").
@Suite struct MaskedProblemTests {
  @Test func cycleThroughAnEdgeThatAlsoBreaksTheSingleInputRuleIsReported() {
    // c → a.in and b → a.in; a → b. The second edge into `a.in` closes the cycle a → b → a.
    let document = FlowDocument(
      nodes: [.node("c", "number"), .node("a", "pass"), .node("b", "pass")],
      edges: [
        .edge("e1", "c.value", "a.in"), .edge("e2", "a.out", "b.in"),
        .edge("e3", "b.out", "a.in")
      ])
    let issues = document.validationIssues()
    #expect(issues.map(\.code) == [.inputAlreadyConnected, .cycle])
    #expect(Set(issues.last?.nodeIDs ?? []) == ["a", "b"])
  }

  @Test func cycleThroughEdgesOfMismatchedTypesIsReported() {
    let document = FlowDocument(
      nodes: [.node("p", "pass"), .node("u", "upper")],
      edges: [.edge("e1", "p.out", "u.text"), .edge("e2", "u.result", "p.in")])
    let issues = document.validationIssues()
    #expect(issues.map(\.code) == [.typeMismatch, .typeMismatch, .cycle])
  }

  @Test func cycleThroughAnUnknownHandleIsReported() {
    let document = FlowDocument(
      nodes: [.node("a", "pass"), .node("b", "pass")],
      edges: [.edge("e1", "a.out", "b.nothing"), .edge("e2", "b.out", "a.in")])
    let issues = document.validationIssues()
    #expect(issues.map(\.code) == [.unknownHandle, .cycle])
  }

  @Test func cycleThroughANodeWithInvalidParamsIsReported() {
    let document = FlowDocument(
      nodes: [.node("a", "pass", params: ["bogus": 1]), .node("b", "pass")],
      edges: [.edge("e1", "a.out", "b.in"), .edge("e2", "b.out", "a.in")])
    let issues = document.validationIssues()
    #expect(issues.map(\.code) == [.invalidParameter, .cycle])
  }

  @Test func edgeToAMissingNodeCreatesNoCycle() {
    let document = FlowDocument(
      nodes: [.node("a", "pass")],
      edges: [.edge("e1", "a.out", "ghost.in"), .edge("e2", "ghost.out", "a.in")])
    #expect(document.validationIssues().map(\.code) == [.missingNode, .missingNode])
  }

  @Test func validatorKeepsTheFirstIssuesAndCountsTheRest() {
    let count = 1_000
    let nodes = (0..<count).map { FlowNode.node("n\($0)", "mystery") }
    do {
      _ = try DocumentValidator.validate(FlowDocument(nodes: nodes, edges: []), catalog: TestCatalog())
      Issue.record("expected unknown kinds")
    } catch {
      #expect(error.issues.count == GraphValidationError.reportedIssueLimit)
      #expect(error.issues.first?.nodeIDs == ["n0"])
      #expect(error.unreportedCount == count - GraphValidationError.reportedIssueLimit)
      #expect(error.totalCount == count)
    }
  }
}

/// The test catalog itself must survive hostile params (it backs the store's property tests).
@Suite struct TestCatalogHostileParamTests {
  @Test(arguments: [1e300, -9_223_372_036_854_775_808.0, 9_223_372_036_854_775_808.0, 0.5])
  func mergeWithAnInputCountThatFitsNoIntIsAnInvalidParam(_ count: Double) {
    let issues = FlowDocument(nodes: [.node("m", "merge", params: ["inputs": .number(count)])]).validationIssues()
    #expect(issues.map(\.code) == [.invalidParameter])
  }
}
