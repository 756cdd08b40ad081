import Testing

import FlowGraph
import FlowTestSupport

/// Declared handles for an `add` node, and the disagreements expected: (handle id, words).
struct HandleMismatch: Sendable, CustomTestStringConvertible {
  var handles: [HandleDeclaration]
  var expected: [(handle: String, words: String)]

  var testDescription: String { handles.map { "\($0.id):\($0.type)" }.joined(separator: ",") }
}

private func target(_ id: String) -> HandleDeclaration { HandleDeclaration(id: id, type: .target, position: .left) }
private func source(_ id: String) -> HandleDeclaration { HandleDeclaration(id: id, type: .source, position: .right) }

@Suite struct NodeSpecRuleTests {
  // MARK: - Kinds

  @Test func unknownKindNamesTheNodeAndTheKind() {
    let issues = FlowDocument(nodes: [.node("n1", "number"), .node("n2", "frobnicate")]).validationIssues()
    #expect(issues.count == 1)
    #expect(issues.first?.code == .unknownKind)
    #expect(issues.first?.nodeIDs == ["n2"])
    #expect(issues.first?.message == "node 'n2' has unknown kind 'frobnicate'")
  }

  @Test func everyUnknownKindIsReported() {
    let issues = FlowDocument(nodes: [.node("x", "nope"), .node("y", ""), .node("z", "Number")]).validationIssues()
    #expect(issues.map(\.code) == [.unknownKind, .unknownKind, .unknownKind])
    #expect(issues.map(\.nodeIDs) == [["x"], ["y"], ["z"]])
  }

  @Test func edgesOfANodeWithAnUnknownKindAreNotReportedAgain() {
    let document = FlowDocument(
      nodes: [.node("x", "nope"), .node("sum", "add"), .node("y", "pass")],
      edges: [.edge("e1", "x.out", "sum.a"), .edge("e3", "x", "y")])
    #expect(document.validationIssues().map(\.code) == [.unknownKind])
  }

  @Test func aCycleThroughANodeWithAnUnknownKindIsStillReported() {
    // Its edges' handles cannot be checked, but x → sum → x is a cycle whatever x's kind.
    let document = FlowDocument(
      nodes: [.node("x", "nope"), .node("sum", "add"), .node("y", "pass")],
      edges: [
        .edge("e1", "x.out", "sum.a"), .edge("e2", "sum.result", "x.anything"),
        .edge("e3", "x", "y")
      ])
    let issues = document.validationIssues()
    #expect(issues.map(\.code) == [.unknownKind, .cycle])
    #expect(issues.last?.message == "cycle: x → sum → x")
  }

  // MARK: - Params

  @Test func invalidParamsAreReportedOneByOneWithNodeAndParam() {
    let document = FlowDocument(nodes: [.node("n", "number", params: ["value": "seven", "colour": "red"])])
    let issues = document.validationIssues()
    #expect(issues.map(\.code) == [.invalidParameter, .invalidParameter])
    #expect(issues.map(\.nodeIDs) == [["n"], ["n"]])
    #expect(issues.map(\.parameter) == ["value", "colour"])
    #expect(
      issues.map(\.message) == [
        "node 'n' (number): param 'value' must be a number, found \"seven\"",
        "node 'n' (number): param 'colour' is not a param of kind 'number' (known: value)"
      ])
  }

  @Test func missingRequiredParamIsReported() {
    let issues = FlowDocument(nodes: [.node("src", "emit")]).validationIssues()
    #expect(issues.map(\.code) == [.invalidParameter])
    #expect(issues.first?.parameter == "type")
    #expect(issues.first?.message == "node 'src' (emit): param 'type' is required")
  }

  @Test func validParamsAreAccepted() {
    let document = FlowDocument(nodes: [
      .node("n", "number", params: ["value": 2.5]),
      .node("i", "integer", params: ["value": 3]),
      .node("src", "emit", params: ["type": "record"])
    ])
    #expect(document.validationIssues() == [])
  }

  @Test func edgesOfANodeWithInvalidParamsAreNotReportedAgain() {
    let document = FlowDocument(
      nodes: [.node("n", "number", params: ["bogus": 1]), .node("sum", "add")],
      edges: [.edge("e", "n", "sum")])
    #expect(document.validationIssues().map(\.code) == [.invalidParameter])
  }

  // MARK: - Declared handles

  @Test func handlesMatchingTheKindAreAccepted() {
    let document = FlowDocument(nodes: [
      .node("sum", "add", handles: [source("result"), target("b"), target("a")]),
      .node("g", "group", handles: []),
      .node("n", "number")
    ])
    #expect(document.validationIssues() == [])
  }

  @Test func handlePositionsAndHitAreasDoNotMatter() {
    let handle = HandleDeclaration(
      id: "value", type: .source, position: .top, connectionStartArea: .disabled,
      connectionTargetArea: .nodeBorder(width: 3))
    #expect(FlowDocument(nodes: [.node("n", "number", handles: [handle])]).validationIssues() == [])
  }

  static let mismatches: [HandleMismatch] = [
    HandleMismatch(
      handles: [target("a"), source("result")],
      expected: [("b", "is missing: the kind has an input port 'b' (a target handle)")]),
    HandleMismatch(
      handles: [target("a"), target("b")],
      expected: [("result", "is missing: the kind has an output port 'result' (a source handle)")]),
    HandleMismatch(
      handles: [target("a"), target("b"), source("result"), target("c")],
      expected: [("c", "is not an input port of the kind")]),
    HandleMismatch(
      handles: [target("a"), target("b"), source("result"), source("total")],
      expected: [("total", "is not an output port of the kind")]),
    HandleMismatch(
      handles: [target("a"), target("b"), target("result")],
      expected: [
        ("result", "is declared as a target but 'result' is an output port"),
        ("result", "is missing: the kind has an output port 'result' (a source handle)")
      ]),
    HandleMismatch(
      handles: [source("a"), target("b"), source("result")],
      expected: [
        ("a", "is declared as a source but 'a' is an input port"),
        ("a", "is missing: the kind has an input port 'a' (a target handle)")
      ]),
    HandleMismatch(
      handles: [],
      expected: [
        ("a", "is missing: the kind has an input port 'a' (a target handle)"),
        ("b", "is missing: the kind has an input port 'b' (a target handle)"),
        ("result", "is missing: the kind has an output port 'result' (a source handle)")
      ]),
    // SwiftFlow's default pair, which does not apply to kinds with ports.
    HandleMismatch(
      handles: [
        HandleDeclaration(id: "target", type: .target, position: .top),
        HandleDeclaration(id: "source", type: .source, position: .bottom)
      ],
      expected: [
        ("target", "is not an input port of the kind"),
        ("source", "is not an output port of the kind"),
        ("a", "is missing: the kind has an input port 'a' (a target handle)"),
        ("b", "is missing: the kind has an input port 'b' (a target handle)"),
        ("result", "is missing: the kind has an output port 'result' (a source handle)")
      ])
  ]

  @Test(arguments: mismatches)
  func declaredHandlesDisagreeingWithTheKindAreReported(_ example: HandleMismatch) {
    let issues = FlowDocument(nodes: [.node("sum", "add", handles: example.handles)]).validationIssues()
    #expect(issues.allSatisfy { $0.code == .handlesDisagreeWithKind && $0.nodeIDs == ["sum"] })
    #expect(issues.map(\.handleID) == example.expected.map(\.handle))
    #expect(issues.map(\.message) == example.expected.map { "node 'sum' (add): handle '\($0.handle)' \($0.words)" })
  }

  @Test func aContainerWithHandlesDisagreesWithItsKind() {
    let issues = FlowDocument(nodes: [.node("g", "group", handles: [target("in")])]).validationIssues()
    #expect(issues.map(\.code) == [.handlesDisagreeWithKind])
    #expect(issues.first?.handleID == "in")
  }

  @Test func aNodeWithDisagreeingHandlesStillResolvesItsEdges() {
    // The kind decides the ports; the handle problem is reported once, the edge is fine.
    let document = FlowDocument(
      nodes: [.node("n", "number"), .node("sum", "add", handles: [target("a")])],
      edges: [.edge("e", "n", "sum.b")])
    #expect(document.validationIssues().map(\.code) == [.handlesDisagreeWithKind, .handlesDisagreeWithKind])
  }
}
