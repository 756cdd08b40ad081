import Testing

import FlowGraph
import FlowTestSupport

@Suite struct DocumentValidatorTests {
  @Test func aDocumentWithManyProblemsReportsEveryOneInOneError() {
    let document = FlowDocument(
      nodes: [
        .node("a", "number"), .node("a", "number"),  // duplicate node id
        .node("k", "frobnicate"),  // unknown kind
        .node("n", "number", params: ["colour": "red"]),  // invalid param
        .node("sum", "add", handles: []),  // handles disagree (3)
        .node("s", "text"), .node("u", "upper"), .node("p", "pass"),
        .node("x", "merge"), .node("y", "identity")
      ],
      edges: [
        .edge("e1", "a", "sum.a"), .edge("e1", "a", "sum.b"),  // duplicate edge id
        .edge("e2", "ghost", "p"),  // missing node
        .edge("e3", "a.nope", "u"),  // unknown handle
        .edge("e4", "a", "sum.result"),  // wrong direction
        .edge("e5", "a", "sum"),  // ambiguous handle
        .edge("e6", "s", "p"),  // type mismatch
        .edge("e7", "a", "u.text"),  // type mismatch
        .edge("e8", "s", "u"),  // fine: e7 was rejected, so u.text has one edge
        .edge("e9", "x", "y"), .edge("e10", "y", "x.in0")  // cycle
      ])
    do {
      _ = try DocumentValidator.validate(document, catalog: TestCatalog())
      Issue.record("expected a validation error")
    } catch {
      #expect(
        error.issues.map(\.code) == [
          .duplicateNodeID, .duplicateEdgeID,
          .unknownKind, .invalidParameter,
          .handlesDisagreeWithKind, .handlesDisagreeWithKind, .handlesDisagreeWithKind,
          .missingNode, .unknownHandle, .wrongDirection, .ambiguousHandle, .typeMismatch, .typeMismatch,
          .cycle
        ])
      #expect(
        error.issues.map(\.edgeID) == [nil, "e1", nil, nil, nil, nil, nil, "e2", "e3", "e4", "e5", "e6", "e7", nil])
      #expect(error.contains(.cycle) && !error.contains(.inputAlreadyConnected))
      #expect(error.description.split(separator: "\n").count == error.issues.count)
    }
  }

  @Test func everyRuleCanReportInTheSameDocument() {
    let document = FlowDocument(
      nodes: [.node("a", "number"), .node("a", "number"), .node("k", "nope"), .node("p", "pass"), .node("q", "merge")],
      edges: [.edge("e1", "a", "p"), .edge("e2", "a", "p"), .edge("e3", "q", "q.in0")])
    #expect(document.validationIssues().map(\.code) == [.duplicateNodeID, .unknownKind, .inputAlreadyConnected, .cycle])
  }

  @Test func aValidDocumentResolvesToDenseIndices() throws {
    let document = FlowDocument(
      nodes: [.node("sum", "add"), .node("a", "number"), .node("b", "integer")],
      edges: [.edge("e1", "b", "sum.b"), .edge("e2", "a", "sum.a")])
    let graph = try DocumentValidator.validate(document, catalog: TestCatalog())
    #expect(graph.nodeIndex(of: "a") == 1 && graph.nodeIndex(of: "zzz") == nil)
    #expect(graph.nodeID(2) == "b")
    #expect(
      graph.edges.map { [$0.source, $0.sourcePort, $0.target, $0.targetPort, $0.documentIndex] }
        == [[2, 0, 0, 1, 0], [1, 0, 0, 0, 1]])
    #expect(graph.topologicalOrder.last == 0)
    #expect(graph.signatures[0].inputs.map(\.name) == ["a", "b"])
  }

  @Test func anEmptyDocumentIsValid() throws {
    let graph = try DocumentValidator.validate(FlowDocument(), catalog: TestCatalog())
    #expect(graph.nodeCount == 0 && graph.topologicalOrder.isEmpty)
  }
}
