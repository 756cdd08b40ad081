import FlowGraph
import FlowRuntime
import FlowTestSupport

/// Small definitions for the subgraph tests.
enum SubgraphFixtures {
  static func input(_ id: String, _ name: String, type: String? = nil, default value: JSONValue? = nil) -> FlowNode {
    var params: JSONObject = ["name": .string(name)]
    if let type { params["type"] = .string(type) }
    if let value { params["default"] = value }
    return .node(id, "input", params: params)
  }

  static func output(_ id: String, _ name: String) -> FlowNode { .node(id, "output", params: ["name": .string(name)]) }

  /// `circle`: input `r` → `k = pi * x^2` → output `area`.
  static var circle: SubgraphDefinition {
    SubgraphDefinition(
      summary: "area of a circle",
      nodes: [
        input("r", "r"), .node("k", "expression", params: ["formula": "pi * x ^ 2"]), output("out", "area")
      ], edges: [.edge("e1", "r.value", "k.x"), .edge("e2", "k.result", "out.value")])
  }

  /// `ratio`: inputs `num`, `den` (default 1) → `q = num / den` → output `value`.
  static var ratio: SubgraphDefinition {
    SubgraphDefinition(
      summary: "num / den",
      nodes: [
        input("n", "num"), input("d", "den", default: 1), .node("q", "divide"), output("out", "value")
      ], edges: [.edge("e1", "n.value", "q.a"), .edge("e2", "d.value", "q.b"), .edge("e3", "q.result", "out.value")])
  }

  /// `twice`: a `ratio` instance inside (`inner`), doubled: input `x` → (x / den) * 2.
  static var twice: SubgraphDefinition {
    SubgraphDefinition(
      summary: "2 x / den",
      nodes: [
        input("x", "x"), input("d", "den", default: 4), .node("inner", "ratio"),
        .node("m", "multiply", params: ["b": 2]),
        output("out", "y")
      ],
      edges: [
        .edge("e1", "x.value", "inner.num"), .edge("e2", "d.value", "inner.den"), .edge("e3", "inner.value", "m.a"),
        .edge("e4", "m.result", "out.value")
      ])
  }

  static func document(_ nodes: [FlowNode], _ edges: [FlowEdge] = [], subgraphs: [String: SubgraphDefinition])
    -> FlowDocument
  {
    FlowDocument(nodes: nodes, edges: edges, subgraphs: subgraphs)
  }

  /// The messages of the problems `document` has.
  static func problems(_ document: FlowDocument, imported: [SubgraphSource] = []) -> [String] {
    do {
      let expanded = try ExpandedDocument(document, imported: imported, catalog: NodeKindRegistry.standard)
      _ = try DocumentValidator.validate(expanded.flat, catalog: NodeKindRegistry.standard)
      return []
    } catch {
      return error.issues.map(\.message)
    }
  }
}
