import Foundation
import FlowGraph
import FlowLayout
import FlowTestSupport
import Testing

/// The host API, through its public surface only: `GraphLayout` positions an editor's nodes at
/// their document sizes without overlaps, columns follow the edges, `apply(to:)` changes only
/// positions (and sizes when asked), and `GraphDrawing` writes each format.
@Suite struct PublicAPITests {
  static let document = FlowDocument(
    nodes: [
      .node("a", "number", params: ["value": 2]), .node("b", "number", params: ["value": 3]),
      .node("sum", "add"), .node("twice", "merge", params: ["inputs": 2]), .node("show", "display")
    ],
    edges: [
      .edge("e1", "a.value", "sum.a"), .edge("e2", "b.value", "sum.b"), .edge("e3", "sum.result", "twice.in0"),
      .edge("e4", "a.value", "twice.in1"), .edge("e5", "twice.out", "show.value")
    ])

  @Test func layoutPlacesEveryNodeLeftToRightWithoutOverlaps() throws {
    let graph = try DocumentValidator.validate(Self.document, catalog: TestCatalog())
    let layout = GraphLayout(graph)
    #expect(layout.positions.count == 5 && layout.sizes.count == 5)
    for node in Self.document.nodes { #expect(layout.sizes[node.id] == node.size) }
    for edge in Self.document.edges {
      let source = try #require(layout.positions[edge.sourceNodeID]),
        target = try #require(layout.positions[edge.targetNodeID])
      #expect(source.x + layout.sizes[edge.sourceNodeID]!.width < target.x, "\(edge.id) goes right")
    }
    let ids = layout.positions.keys.sorted()
    for (index, a) in ids.enumerated() {
      for b in ids[(index + 1)...] {
        let r = CGRect(origin: layout.positions[a]!, size: layout.sizes[a]!),
          s = CGRect(origin: layout.positions[b]!, size: layout.sizes[b]!)
        #expect(!r.intersects(s), "\(a) and \(b) overlap")
      }
    }
    for (id, point) in layout.positions {
      #expect(point.x >= 0 && point.y >= 0 && point.x + layout.sizes[id]!.width <= layout.size.width)
      #expect((point.x * 2).rounded() == point.x * 2 && (point.y * 2).rounded() == point.y * 2, "\(id) at \(point)")
    }
    // The long edge a → twice bends once, in the column it crosses.
    #expect(layout.bends[3].count == 1 && layout.bends[0].isEmpty)
  }

  @Test func applyWritesPositionsAndOnlyThem() throws {
    let graph = try DocumentValidator.validate(Self.document, catalog: TestCatalog())
    var document = Self.document
    let layout = GraphLayout(graph, sizing: .picture)
    layout.apply(to: &document)
    for (before, after) in zip(Self.document.nodes, document.nodes) {
      #expect(after.position == layout.positions[after.id])
      #expect(after.size == before.size && after.data == before.data)
    }
    layout.apply(to: &document, sizes: true)
    for node in document.nodes {
      #expect(node.size == layout.sizes[node.id])
      #expect(node.size.width >= FlowNode.defaultSize.width && node.size.height >= FlowNode.defaultSize.height)
    }
    #expect(document.edges == Self.document.edges)
  }

  @Test func drawingWritesEachFormat() throws {
    let graph = try DocumentValidator.validate(Self.document, catalog: TestCatalog())
    let svg = GraphDrawing.text(of: graph)
    #expect(svg.hasPrefix("<?xml") && svg.components(separatedBy: "<path class=\"edge\"").count == 6)
    #expect(svg.components(separatedBy: "<g class=\"node\"").count == 6)
    #expect(GraphDrawing.text(of: graph, placement: .document) != svg)
    let dot = GraphDrawing.text(of: graph, format: .dot)
    #expect(dot.hasPrefix("digraph flow {") && dot.contains("\"sum\" -> \"twice\""))
    let mermaid = GraphDrawing.text(of: graph, format: .mermaid)
    #expect(mermaid.hasPrefix("flowchart LR") && mermaid.contains("n2 -->|\"result → in0\"| n3"))
  }
}
