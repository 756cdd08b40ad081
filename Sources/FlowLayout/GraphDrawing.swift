import FlowGraph
import FlowRuntime

/// Pictures of a validated graph as text: a self-contained SVG (laid out in layers, or at the
/// document's positions), Graphviz DOT or a Mermaid flowchart — what `flow render` writes.
///
/// Each node is a box with its title, kind, params and ports (an unconnected input set by a
/// param shows `name = value`); with an evaluator's values, each output shows its value and a
/// failed node its message, in red. Every text is escaped for its format.
///
/// ```swift
/// let graph = try DocumentValidator.validate(document, catalog: registry)
/// let svg = GraphDrawing.text(of: graph, format: .svg)
/// var evaluator = GraphEvaluator(graph, registry: registry)
/// evaluator.evaluate()
/// let dot = GraphDrawing.text(of: graph, format: .dot, values: evaluator)
/// ```
public enum GraphDrawing {
  /// The picture's format.
  public enum Format: String, Sendable, CaseIterable {
    /// SVG 1.1, its own styles, a `viewBox` so it scales.
    case svg
    /// Graphviz DOT (`dot -Tpng`), left to right.
    case dot
    /// A Mermaid `flowchart LR`.
    case mermaid
  }

  /// Where an SVG's boxes go (DOT and Mermaid leave placement to their tools).
  public enum Placement: String, Sendable {
    /// `GraphLayout`'s layered layout at the drawn boxes' sizes.
    case layered
    /// The positions the document holds, boxes at least the document's sizes.
    case document
  }

  /// The picture of `graph`.
  ///
  /// - Parameters:
  ///   - values: an evaluator of the same graph whose outputs and failures to show.
  /// - Complexity: the layered layout's (see `GraphLayout`) plus the size of the output.
  public static func text(
    of graph: ResolvedGraph, format: Format = .svg, placement: Placement = .layered,
    values: GraphEvaluator? = nil
  ) -> String {
    var picture = GraphPicture(graph: graph, values: values)
    switch format {
    case .dot: return DotWriter.dot(picture)
    case .mermaid: return MermaidWriter.mermaid(picture)
    case .svg:
      switch placement {
      case .layered: picture.placeLayered()
      case .document: picture.placeFromDocument(graph.document)
      }
      return SVGWriter.svg(picture)
    }
  }
}
