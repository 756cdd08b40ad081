import Testing

import FlowGraph
import FlowTestSupport

/// `a` (number), `b` (number), `sum` (add: a, b → result), `p` (pass: in → out), `show` (display:
/// value), `g` (group), and `edges`.
private func calculator(_ edges: [FlowEdge]) -> FlowDocument {
  FlowDocument(
    nodes: [
      .node("a", "number"), .node("b", "number"), .node("sum", "add"), .node("p", "pass"),
      .node("show", "display"), .node("g", "group")
    ], edges: edges)
}

/// An `emit` node of `source` type feeding a `take` node of `target` type.
private func typed(_ source: PortType, into target: PortType) -> FlowDocument {
  FlowDocument(
    nodes: [
      .node("src", "emit", params: ["type": .string(source.rawValue)]),
      .node("dst", "take", params: ["type": .string(target.rawValue)])
    ],
    edges: [.edge("e1", "src.out", "dst.in")])
}

@Suite struct EdgeEndpointRuleTests {
  @Test func wellFormedEdgesAreAccepted() {
    let document = calculator([
      .edge("e1", "a.value", "sum.a"), .edge("e2", "b.value", "sum.b"),
      .edge("e3", "sum.result", "p.in"), .edge("e4", "p.out", "show.value")
    ])
    #expect(document.validationIssues() == [])
  }

  // MARK: - Missing nodes

  @Test func edgeFromAMissingNodeNamesTheEdgeAndTheNode() {
    let issues = calculator([.edge("e1", "ghost.value", "sum.a")]).validationIssues()
    #expect(issues.count == 1)
    #expect(issues.first?.code == .missingNode)
    #expect(issues.first?.nodeIDs == ["ghost"])
    #expect(issues.first?.edgeID == "e1")
    #expect(issues.first?.handleID == "value")
    #expect(issues.first?.message == "edge 'e1' starts at node 'ghost', which does not exist")
  }

  @Test func edgeToAMissingNodeNamesTheEdgeAndTheNode() {
    let issues = calculator([.edge("e1", "a.value", "ghost.in")]).validationIssues()
    #expect(issues.count == 1)
    #expect(issues.first?.code == .missingNode)
    #expect(issues.first?.nodeIDs == ["ghost"])
    #expect(issues.first?.edgeID == "e1")
    #expect(issues.first?.handleID == "in")
    #expect(issues.first?.message == "edge 'e1' ends at node 'ghost', which does not exist")
  }

  @Test func edgeBetweenTwoMissingNodesReportsBoth() {
    let issues = calculator([.edge("e1", "x", "y")]).validationIssues()
    #expect(issues.map(\.code) == [.missingNode, .missingNode])
    #expect(issues.map(\.nodeIDs) == [["x"], ["y"]])
    #expect(issues.allSatisfy { $0.edgeID == "e1" })
  }

  // MARK: - Unknown handles

  @Test func unknownSourceHandleListsTheOutputPorts() {
    let issues = calculator([.edge("e1", "sum.total", "p.in")]).validationIssues()
    #expect(issues.count == 1)
    #expect(issues.first?.code == .unknownHandle)
    #expect(issues.first?.nodeIDs == ["sum"])
    #expect(issues.first?.edgeID == "e1")
    #expect(issues.first?.handleID == "total")
    #expect(
      issues.first?.message == "edge 'e1' starts at unknown handle 'total' of node 'sum' (its output ports are result)")
  }

  @Test func unknownTargetHandleListsTheInputPorts() {
    let issues = calculator([.edge("e1", "a.value", "sum.c")]).validationIssues()
    #expect(issues.count == 1)
    #expect(issues.first?.code == .unknownHandle)
    #expect(issues.first?.nodeIDs == ["sum"])
    #expect(issues.first?.handleID == "c")
    #expect(issues.first?.message == "edge 'e1' ends at unknown handle 'c' of node 'sum' (its input ports are a, b)")
  }

  @Test func unknownHandlesAtBothEndsAreBothReported() {
    let issues = calculator([.edge("e1", "a.v", "sum.c")]).validationIssues()
    #expect(issues.map(\.code) == [.unknownHandle, .unknownHandle])
    #expect(issues.map(\.handleID) == ["v", "c"])
    #expect(issues.map(\.nodeIDs) == [["a"], ["sum"]])
  }

  @Test func handleOfANodeWithoutPortsOnThatSideIsUnknown() {
    let issues = calculator([.edge("e1", "a.value", "b.in")]).validationIssues()
    #expect(issues.map(\.code) == [.unknownHandle])
    #expect(issues.first?.message == "edge 'e1' ends at unknown handle 'in' of node 'b' (it has no input ports)")
  }

  @Test func edgeIntoAContainerIsRejected() {
    let issues = calculator([.edge("e1", "a.value", "g")]).validationIssues()
    #expect(issues.map(\.code) == [.unknownHandle])
    #expect(issues.first?.nodeIDs == ["g"])
    #expect(issues.first?.message == "edge 'e1' ends at node 'g' without a handle id, which has no input port")
  }

  // MARK: - Direction

  @Test func edgeIntoAnOutputIsTheWrongDirection() {
    let issues = calculator([.edge("e1", "a.value", "sum.result")]).validationIssues()
    #expect(issues.count == 1)
    #expect(issues.first?.code == .wrongDirection)
    #expect(issues.first?.nodeIDs == ["sum"])
    #expect(issues.first?.edgeID == "e1")
    #expect(issues.first?.handleID == "result")
    #expect(issues.first?.message == "edge 'e1' goes into the output 'result' of node 'sum'")
  }

  @Test func edgeOutOfAnInputIsTheWrongDirection() {
    let issues = calculator([.edge("e1", "sum.a", "p.in")]).validationIssues()
    #expect(issues.count == 1)
    #expect(issues.first?.code == .wrongDirection)
    #expect(issues.first?.nodeIDs == ["sum"])
    #expect(issues.first?.handleID == "a")
    #expect(issues.first?.message == "edge 'e1' goes out of the input 'a' of node 'sum'")
  }

  @Test func reversedEdgeIsWrongAtBothEnds() {
    let issues = calculator([.edge("e1", "sum.a", "a.value")]).validationIssues()
    #expect(issues.map(\.code) == [.wrongDirection, .wrongDirection])
    #expect(issues.map(\.nodeIDs) == [["sum"], ["a"]])
  }

  // MARK: - Handle-less ends

  @Test func handleLessEdgeToTheOnlyPortsIsAccepted() throws {
    let document = calculator([.edge("e1", "a", "p"), .edge("e2", "p", "show")])
    #expect(document.validationIssues() == [])
    let graph = try DocumentValidator.validate(document, catalog: TestCatalog())
    #expect(graph.edges.map { [$0.sourcePort, $0.targetPort] } == [[0, 0], [0, 0]])
  }

  @Test func handleLessEdgeIntoANodeWithTwoInputsIsAmbiguous() {
    let issues = calculator([.edge("e1", "a", "sum")]).validationIssues()
    #expect(issues.count == 1)
    #expect(issues.first?.code == .ambiguousHandle)
    #expect(issues.first?.nodeIDs == ["sum"])
    #expect(issues.first?.edgeID == "e1")
    #expect(
      issues.first?.message
        == "edge 'e1' ends at node 'sum' without a handle id, which has 2 input ports (a, b); name the handle")
  }

  @Test func handleLessEdgeOutOfANodeWithoutOutputsIsRejected() {
    let issues = calculator([.edge("e1", "show", "p")]).validationIssues()
    #expect(issues.map(\.code) == [.unknownHandle])
    #expect(issues.first?.nodeIDs == ["show"])
    #expect(issues.first?.message == "edge 'e1' starts at node 'show' without a handle id, which has no output port")
  }

  @Test func namedHandleResolvesToItsPort() throws {
    let graph = try DocumentValidator.validate(calculator([.edge("e1", "a", "sum.b")]), catalog: TestCatalog())
    #expect(graph.edges.first?.targetPort == 1)
  }

  // MARK: - Types

  @Test func numberIntoStringIsATypeMismatch() {
    let issues = typed(.number, into: .string).validationIssues()
    #expect(issues.count == 1)
    #expect(issues.first?.code == .typeMismatch)
    #expect(issues.first?.nodeIDs == ["src", "dst"])
    #expect(issues.first?.edgeID == "e1")
    #expect(issues.first?.handleID == "in")
    #expect(issues.first?.message == "edge 'e1': src.out is number but dst.in takes string")
  }

  @Test func integerIntoNumberIsAccepted() {
    #expect(typed(.integer, into: .number).validationIssues() == [])
  }

  @Test func numberIntoIntegerIsRejected() {
    #expect(typed(.number, into: .integer).validationIssues().map(\.code) == [.typeMismatch])
  }

  @Test(arguments: PortType.allCases)
  func anyAcceptsAndFeedsEveryType(type: PortType) {
    #expect(typed(type, into: .any).validationIssues() == [])
    #expect(typed(.any, into: type).validationIssues() == [])
  }

  @Test(arguments: PortType.allCases, PortType.allCases)
  func portTypesFollowTheSpec(source: PortType, target: PortType) {
    // Reference.md, "Validation": integer → number converts implicitly; any accepts everything; all else must match.
    let accepted = source == target || source == .any || target == .any || (source == .integer && target == .number)
    let codes = typed(source, into: target).validationIssues().map(\.code)
    #expect(codes == (accepted ? [] : [.typeMismatch]))
  }

  @Test func typeMismatchUsesTheKindsOfTheCatalog() {
    let document = FlowDocument(
      nodes: [.node("t", "text"), .node("sum", "add"), .node("u", "upper")],
      edges: [.edge("e1", "t", "sum.a"), .edge("e2", "sum", "u")])
    let issues = document.validationIssues()
    #expect(issues.map(\.code) == [.typeMismatch, .typeMismatch])
    #expect(issues.map(\.edgeID) == ["e1", "e2"])
    #expect(
      issues.map(\.message) == [
        "edge 'e1': t.value is string but sum.a takes number",
        "edge 'e2': sum.result is number but u.text takes string"
      ])
  }
}
