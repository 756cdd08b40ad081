import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing
@testable import FlowLayout

/// `flow render --expand`: each subgraph instance is a frame holding its definition's nodes
/// (ids `<instance>/<inner>`), nested instances nested frames; no box overlaps another and no
/// edge passes under a node at any depth; DOT and Mermaid clusters join every edge to a
/// declared node.
@Suite struct ExpandedInstanceTests {
  static func input(_ id: String, _ name: String, default value: JSONValue? = nil) -> FlowNode {
    var params: JSONObject = ["name": .string(name)]
    if let value { params["default"] = value }
    return .node(id, "input", params: params)
  }

  /// `ratio` (num / den), `twice` (a `ratio` inside, doubled), and a document with two
  /// `twice` instances and one `ratio`, fed by a number and summed.
  static var document: FlowDocument {
    let ratio = SubgraphDefinition(
      nodes: [
        input("n", "num"), input("d", "den", default: 1), .node("q", "divide"),
        .node("out", "output", params: ["name": "value"])
      ], edges: [.edge("e1", "n.value", "q.a"), .edge("e2", "d.value", "q.b"), .edge("e3", "q.result", "out.value")])
    let twice = SubgraphDefinition(
      nodes: [
        input("x", "x"), input("d", "den", default: 4), .node("inner", "ratio"),
        .node("m", "multiply", params: ["b": 2]),
        .node("out", "output", params: ["name": "y"])
      ],
      edges: [
        .edge("e1", "x.value", "inner.num"), .edge("e2", "d.value", "inner.den"), .edge("e3", "inner.value", "m.a"),
        .edge("e4", "m.result", "out.value")
      ])
    return FlowDocument(
      nodes: [
        .node("s", "number", params: ["value": 12]), .node("a", "twice"), .node("b", "twice", params: ["den": 3]),
        .node("r", "ratio", params: ["num": 10]), .node("sum", "add"), .node("total", "add")
      ],
      edges: [
        .edge("f1", "s.value", "a.x"), .edge("f2", "s.value", "b.x"), .edge("f3", "a.y", "sum.a"),
        .edge("f4", "b.y", "sum.b"),
        .edge("f5", "sum.result", "total.a"), .edge("f6", "r.value", "total.b")
      ], subgraphs: ["ratio": ratio, "twice": twice])
  }

  static func picture(values: Bool = false) throws -> (GraphPicture, GraphEvaluator?) {
    let registry = NodeKindRegistry.standard
    let expanded = try ExpandedDocument(document, catalog: registry)
    let graph = try DocumentValidator.validate(
      document, catalog: SubgraphCatalog(base: registry, library: expanded.library))
    var evaluator: GraphEvaluator?
    if values {
      var flat = try GraphEvaluator(validating: expanded.flat, registry: registry)
      flat.evaluate()
      evaluator = flat
    }
    var picture = GraphPicture(graph: graph, values: evaluator)
    picture.expandInstances(graph: graph, library: expanded.library, catalog: registry, values: evaluator)
    return (picture, evaluator)
  }

  /// Every box id at every depth.
  static func ids(_ picture: GraphPicture) -> [String] {
    picture.boxes.map(\.id) + picture.insides.values.flatMap { ids($0.picture) }
  }

  /// No two boxes of a level overlap, no edge passes under a box, and each inside fits below
  /// its instance's port rows; then the same inside every frame.
  static func expectPlaced(_ picture: GraphPicture, _ context: String) {
    for a in picture.boxes.indices {
      for b in picture.boxes.indices where a < b {
        let p = picture.boxes[a], q = picture.boxes[b]
        let apart = p.x + p.width <= q.x || q.x + q.width <= p.x || p.y + p.height <= q.y || q.y + q.height <= p.y
        #expect(apart, "\(context): \(p.id) overlaps \(q.id)")
      }
    }
    EdgeRoutingTests.expectClear(picture, context)
    for (index, inside) in picture.insides {
      let box = picture.boxes[index]
      #expect(inside.top >= GraphPicture.headerHeight, "\(box.id) inside starts at \(inside.top)")
      #expect(
        inside.picture.width <= box.width && inside.top + inside.picture.height <= box.height,
        "\(box.id): inside \(inside.picture.width)×\(inside.picture.height) at \(inside.top) in \(box.width)×\(box.height)"
      )
      expectPlaced(inside.picture, box.id)
    }
  }

  @Test func instancesAreFramesHoldingTheirInnerNodesNested() throws {
    var (picture, _) = try Self.picture()
    picture.placeLayered()
    #expect(Set(picture.insides.keys.map { picture.boxes[$0].id }) == ["a", "b", "r"])
    let a = try #require(picture.insides[1])
    #expect(a.picture.boxes.map(\.id) == ["a/x", "a/d", "a/inner", "a/m", "a/out"])
    // The nested instance `a/inner` is a frame too, with its own inner nodes.
    let inner = try #require(a.picture.insides[2])
    #expect(inner.picture.boxes.map(\.id) == ["a/inner/n", "a/inner/d", "a/inner/q", "a/inner/out"])
    #expect(inner.picture.boxes[0].isPortMarker && !inner.picture.boxes[2].isPortMarker)
    // The instance box keeps its title, its definition's name and its ports.
    #expect(
      picture.boxes[1].title == "a" && picture.boxes[1].kind == "twice" && picture.boxes[1].inputs == ["x", "den"])
    Self.expectPlaced(picture, "layered")
    let svg = SVGWriter.svg(picture)
    for id in Self.ids(picture) { #expect(svg.contains("data-id=\"\(id)\""), "\(id) drawn") }
    #expect(svg.contains("<g class=\"subgraph\" data-id=\"a/inner\""))
  }

  @Test func innerValuesAreShownByPath() throws {
    var (picture, evaluator) = try Self.picture(values: true)
    picture.placeLayered()
    let evaluated = try #require(evaluator)
    // a: 12 / 4 * 2 = 6; b: 12 / 3 * 2 = 8; r: 10 / 1.
    #expect(evaluated.outputs(of: "a/inner/q")?["result"] == .number(3))
    let q = picture.box(at: [1, 2, 2])
    #expect(q.id == "a/inner/q" && q.outputs == ["result = 3"])
    #expect(picture.box(at: [2, 3]).outputs == ["result = 8"])
    Self.expectPlaced(picture, "with values")
  }

  @Test func dotAndMermaidMakeClustersAndJoinEveryEdgeToADeclaredNode() throws {
    let (picture, _) = try Self.picture()
    let dot = DotWriter.dot(picture)
    #expect(dot.contains("subgraph \"cluster_a\" {") && dot.contains("subgraph \"cluster_a/inner\" {"))
    #expect(dot.contains("label=\"a · twice\""))
    var declared = Set<String>()
    var ends: [String] = []
    for line in dot.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      let quoted = line.split(separator: "\"", omittingEmptySubsequences: false)
      if line.contains(" -> ") {
        ends += [String(quoted[1]), String(quoted[3])]
      } else if line.hasSuffix("];") {
        declared.insert(String(quoted[1]))
      }
    }
    #expect(ends.count == 2 * (6 + 3 * 3 + 2 * 4 - 2 * 0) && !ends.isEmpty)
    for end in ends { #expect(declared.contains(end), "\(end) declared") }
    // Into a port: the port's input node; out of one: its output node; no instance node.
    #expect(
      dot.contains("\"s\" -> \"a/x\"") && dot.contains("\"a/out\" -> \"sum\"")
        && dot.contains("\"a/x\" -> \"a/inner/n\""))
    #expect(!declared.contains("a") && !declared.contains("a/inner"))

    let mermaid = MermaidWriter.mermaid(picture)
    #expect(mermaid.contains("subgraph s1[\"a · twice\"]") && mermaid.contains("subgraph s1_2[\"inner · ratio\"]"))
    var names = Set<String>()
    var links: [String] = []
    for line in mermaid.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      if line.contains(" -->|") {
        let parts = line.split(separator: " ")
        links += [String(parts[0]), String(parts.last!)]
      } else if line.hasPrefix("n"), let bracket = line.firstIndex(of: "[") {
        names.insert(String(line[..<bracket]))
      }
    }
    #expect(links.count == ends.count)
    for link in links { #expect(names.contains(link), "\(link) declared") }
  }

  @Test func withoutExpandNothingChanges() throws {
    let registry = NodeKindRegistry.standard
    let expanded = try ExpandedDocument(Self.document, catalog: registry)
    let graph = try DocumentValidator.validate(
      Self.document, catalog: SubgraphCatalog(base: registry, library: expanded.library))
    let plain = GraphPicture(graph: graph, values: nil)
    #expect(plain.insides.isEmpty && !DotWriter.dot(plain).contains("cluster_"))
  }
}
