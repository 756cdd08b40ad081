import FlowGraph
import FlowNodes
@testable import FlowRuntime
import FlowTestSupport
import Testing

/// Boundary (`input`, `output`) and instance nodes take the typed path (`ScalarEvaluation.forward`):
/// they must give exactly what the boxed `Forward` gives — integers stay integers, bools stay
/// bools, strings and nulls fall back, failures pass through — and the same reports (which
/// nodes ran, were cut off, failed), before and after random edits of the sources.
@Suite struct SubgraphForwardPathTests {
  typealias F = SubgraphFixtures

  /// `pass`: input `x` (any) → output `y`; `outer`: input `x` → a `pass` instance → output `y`;
  /// `req`: a required number input `x` → `add` 1 → output `y`.
  static var document: FlowDocument {
    let pass = SubgraphDefinition(
      nodes: [F.input("x", "x", type: "any"), F.output("out", "y")],
      edges: [.edge("e1", "x.value", "out.value")])
    let outer = SubgraphDefinition(
      nodes: [F.input("x", "x", type: "any"), .node("p", "pass"), F.output("out", "y")],
      edges: [.edge("e1", "x.value", "p.x"), .edge("e2", "p.y", "out.value")])
    let required = SubgraphDefinition(
      nodes: [F.input("x", "x"), .node("a", "add", params: ["b": 1]), F.output("out", "y")],
      edges: [.edge("e1", "x.value", "a.a"), .edge("e2", "a.result", "out.value")])
    var nodes: [FlowNode] = [
      .node("n", "number", params: ["value": 2.5]), .node("i", "number", params: ["value": 3]),
      .node("t", "text", params: ["value": "hi"]), .node("z", "divide", params: ["a": 1, "b": 0]),
      // Bools come from instance params (set on the inlined `input` node).
      .node("p_b", "pass", params: ["x": true]), .node("o_b", "outer", params: ["x": false])
    ]
    var edges: [FlowEdge] = []
    for source in ["n", "i", "t", "z"] {
      let port = source == "z" ? "result" : "value"
      nodes += [.node("p_\(source)", "pass"), .node("o_\(source)", "outer")]
      edges += [
        .edge("ep_\(source)", "\(source).\(port)", "p_\(source).x"),
        .edge("eo_\(source)", "\(source).\(port)", "o_\(source).x")
      ]
      if source != "t" {
        nodes.append(.node("r_\(source)", "req"))
        edges.append(.edge("er_\(source)", "\(source).\(port)", "r_\(source).x"))
      }
    }
    nodes.append(.node("sum", "add"))
    edges += [.edge("s1", "p_i.y", "sum.a"), .edge("s2", "o_i.y", "sum.b")]
    return F.document(nodes, edges, subgraphs: ["pass": pass, "outer": outer, "req": required])
  }

  static func evaluator(typed: Bool, _ flat: FlowDocument) throws -> GraphEvaluator {
    var options = EngineOptions(runsExpensiveNodesConcurrently: false)
    options.usesScalarEvaluation = typed
    return try GraphEvaluator(validating: flat, registry: .standard, options: options)
  }

  static func expectSame(
    _ typed: EvaluationReport, _ boxed: EvaluationReport, _ a: GraphEvaluator, _ b: GraphEvaluator,
    ids: [String], _ comment: Comment
  ) {
    #expect(typed.ran == boxed.ran, comment)
    #expect(typed.cutOff == boxed.cutOff, comment)
    #expect(typed.failed == boxed.failed, comment)
    for id in ids { #expect(a.outputs(of: id) == b.outputs(of: id), "\(comment): \(id)") }
  }

  @Test(arguments: 0..<20) func boundaryNodesGiveTheSameValuesAndReportsTypedAndBoxed(seed: UInt64) throws {
    let flat = try ExpandedDocument(Self.document, catalog: NodeKindRegistry.standard).flat
    let ids = flat.nodes.map(\.id)
    var typed = try Self.evaluator(typed: true, flat), boxed = try Self.evaluator(typed: false, flat)
    let first = typed.evaluate()
    Self.expectSame(first, boxed.evaluate(), typed, boxed, ids: ids, "first pass")
    // Exact through the boundaries: the integer stays an integer, the bool a bool.
    #expect(typed.outputs(of: "o_i")?["y"] == typed.outputs(of: "i")?["value"])
    #expect(typed.outputs(of: "p_b")?["y"] == .bool(true) && typed.outputs(of: "o_b")?["y"] == .bool(false))
    #expect(typed.outputs(of: "p_t")?["y"] == .string("hi"))
    #expect(first.failed["p_z"] == "upstream error from z" && first.failed["o_z/p/out"] != nil)

    var random = SeededRandom(seed: seed)
    let values: [JSONValue] = [1, 2, 3, 2.5, -1, 0, .string("x")]
    for step in 0..<12 {
      let node: FlowNode
      switch random.next() % 5 {
      case 0: node = .node("n", "number", params: ["value": values[Int(random.next() % 6)]])
      case 1: node = .node("i", "number", params: ["value": values[Int(random.next() % 3)]])
      case 2: node = .node("t", "text", params: ["value": random.next() % 2 == 0 ? "hi" : "ho"])
      case 3: node = .node("z", "divide", params: ["a": 1, "b": values[Int(random.next() % 6)]])
      default:
        // An instance's bool param, as the expansion writes it on its `input` node.
        let id = random.next() % 2 == 0 ? "p_b/x" : "o_b/x"
        var input = try #require(flat.nodes.first { $0.id == id })
        input.data.params["value"] = .bool(random.next() % 2 == 0)
        node = input
      }
      typed.apply(.node(.replace(node)))
      boxed.apply(.node(.replace(node)))
      Self.expectSame(
        typed.evaluate(), boxed.evaluate(), typed, boxed, ids: ids, "seed \(seed) step \(step): \(node.id)")
    }
  }
}
