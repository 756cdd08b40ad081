import FlowGraph
import FlowRuntime

/// `flow render`'s SVG path as one call, for `flow-bench` (package access, not API).
package enum GraphRendering {
  /// What one layered rendering produced.
  package struct Result {
    package var svg: String
    package var crossings: Int
    package var sweeps: Int
    package var dummies: Int
  }

  /// Lays out `graph` (validated with `registry`) in layers and writes the SVG.
  package static func layeredSVG(of graph: ResolvedGraph) -> Result {
    var picture = GraphPicture(graph: graph, values: nil)
    picture.placeLayered()
    let svg = SVGWriter.svg(picture)
    return Result(
      svg: svg, crossings: picture.crossings, sweeps: picture.sweeps,
      dummies: picture.routes.reduce(0) { $0 + $1.count })
  }

  /// The layered layout alone (node sizes as `flow render` measures them).
  package static func layout(of graph: ResolvedGraph) -> (crossings: Int, sweeps: Int) {
    var picture = GraphPicture(graph: graph, values: nil)
    picture.placeLayered()
    return (picture.crossings, picture.sweeps)
  }
}
