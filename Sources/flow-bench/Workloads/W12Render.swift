import FlowGraph
import FlowLayout
import FlowRuntime
import FlowTestSupport

/// W12: `flow render --format svg` without the file I/O — measure the boxes, layered layout
/// (layers, dummies, crossing reduction, placement) and write the SVG — on a 10,000-node random
/// DAG shaped like W3 (target ≤ 2 s) and on the 100,000-node W3 graph itself (it must finish:
/// crossing reduction is bounded by sweeps).
enum W12Render {
  /// A W3-shaped DAG of `count` nodes: 1% sources, each other node reading two earlier ones.
  static func randomDAG(_ count: Int) -> BenchGraph {
    var random = SeededRandom(seed: 12)
    var graph = BenchGraph()
    let sources = max(1, count / 100)
    for index in 0..<sources { graph.node("source", ["value": .number(Double(index + 1))]) }
    for index in sources..<count {
      let a = Int(random.next() % UInt64(index))
      let b = Int(random.next() % UInt64(index))
      let id = graph.node("addmod")
      graph.edge("n\(a)", to: id, "a")
      graph.edge("n\(b)", to: id, "b")
    }
    return graph
  }

  static func run() async throws {
    for (label, graph) in [("10k random DAG", randomDAG(10_000)), ("W3 100k random DAG", BenchGraph.randomDAG().graph)]
    {
      let resolved: ResolvedGraph
      do { resolved = try DocumentValidator.validate(graph.document, catalog: BenchKinds.registry) } catch {
        Harness.check(false, "W12 graph invalid: \(error)")
        return
      }
      let nodes = graph.document.nodes.count
      var result: GraphRendering.Result?
      let svg = Harness.measure { _ in result = GraphRendering.layeredSVG(of: resolved) }
      let rendered = result!
      Harness.check(rendered.svg.hasSuffix("</svg>\n"), "W12 svg")
      Harness.check(
        rendered.svg.components(separatedBy: "<g class=\"node\"").count - 1 == nodes, "W12 one element per node")
      Harness.emit(
        workload: "W12", metric: "layout + svg (\(label))", svg, nodes: nodes, variant: "layered, barycentre sweeps",
        note: "\(graph.document.edges.count) edges, \(rendered.dummies) dummies, \(rendered.sweeps) sweeps, "
          + "\(rendered.crossings) crossings left, \(rendered.svg.utf8.count / 1_000_000) MB SVG")
      var layout = (crossings: 0, sweeps: 0)
      let alone = Harness.measure { _ in layout = GraphRendering.layout(of: resolved) }
      Harness.check(layout.crossings == rendered.crossings, "W12 deterministic layout")
      Harness.emit(
        workload: "W12", metric: "layout only (\(label))", alone, nodes: nodes, variant: "layered, barycentre sweeps")
    }
  }
}
