/// A layered (Sugiyama-style) drawing of a directed graph, left to right.
///
/// The steps (Gansner et al., "A Technique for Drawing Directed Graphs"), each in its own file:
/// 1. `+Layers`: longest-path layers (sources pulled next to their first successor), and a
///    dummy vertex on every layer a long edge crosses, so every segment joins adjacent layers.
/// 2. `+Ordering`: crossing reduction by barycentre sweeps, down then up, a bounded number of
///    times, keeping the best order; crossings are counted per layer pair by sorting and an
///    inversion count in a Fenwick tree (Barth, Jünger, Mutzel), O(*E* log *V*).
/// 3. `+Coordinates`: layers become columns; inside a column, vertices keep their order and are
///    placed as close as the spacing allows to where their neighbours' ports are (a weighted
///    isotonic regression, pool-adjacent-violators, linear per layer), a few sweeps each way, so
///    edges run straight where they can; dummies weigh more, keeping long edges straight.
/// 4. `+Bands`: a drawing much wider than tall is wrapped into bands of layers, stacked.
/// 5. `+Paths`: each edge's path, straight through columns at its vertices' heights and curved
///    only between columns, so no edge passes under a node.
///
/// Coordinates lie on the half-point grid. Vertices are dense indices; nothing recurses, and nothing is quadratic except the bounded
/// number of sweeps over the whole graph.
///
/// - Complexity: O(*S* · (*V* + *E*) log *V*) for *S* ≤ `maximumSweeps` sweeps over *V* vertices
///   (nodes plus dummies) and *E* segments.
package struct LayeredLayout: Sendable {
  /// One edge of the input: node indices and where on each node its port sits (distance from
  /// the node's top edge).
  package struct Edge: Sendable, Hashable {
    package var source: Int32
    package var target: Int32
    package var sourcePortY: Double
    package var targetPortY: Double

    package init(source: Int32, target: Int32, sourcePortY: Double, targetPortY: Double) {
      self.source = source
      self.target = target
      self.sourcePortY = sourcePortY
      self.targetPortY = targetPortY
    }
  }

  /// Spacing and effort.
  package struct Options: Sendable {
    /// Horizontal room between two columns (edges curve through it).
    package var layerGap = 80.0
    /// Vertical room between two nodes of a column.
    package var nodeGap = 24.0
    /// Vertical room around a dummy vertex (a long edge passing through a column).
    package var dummyGap = 12.0
    /// At most this many crossing-reduction sweeps (each down or up over every layer).
    package var maximumSweeps = 24
    /// Coordinate-assignment sweeps.
    package var placementSweeps = 8
    /// Margin around the drawing.
    package var margin = 20.0
    /// A drawing wider than this and more than `maximumAspectRatio` times as wide as tall is
    /// wrapped into bands of layers stacked top to bottom (`LayerBands`).
    package var maximumWidth = 1_600.0
    package var maximumAspectRatio = 2.5
    /// Vertical room between two bands (wrapped edges run through it).
    package var bandGap = 64.0
    /// Room beside the bands for wrapped edges.
    package var channel = 24.0

    package init() {}
  }

  /// Left edge of each node.
  package var x: [Double]
  /// Top edge of each node.
  package var y: [Double]
  /// The layer (column) of each node.
  package var layer: [Int32]
  /// The centre points of the dummies each edge passes through, in order: edge `e`'s points are
  /// `routeX[routeStart[e]..<routeStart[e + 1]]` (and `routeY`).
  package var routeStart: [Int32]
  package var routeX: [Double]
  package var routeY: [Double]
  /// The drawn path of each edge, from its source's output port to its target's input port:
  /// edge `e`'s points are `pathX[pathStart[e]..<pathStart[e + 1]]` (and `pathY`), and
  /// `pathCurve[i]` says whether the step into point `i` is a curve with horizontal ends (a
  /// cubic Bézier with control points halfway across, at each end's height) or a straight
  /// line. No path passes through a node's box (`EdgePaths`).
  package var pathStart: [Int32]
  package var pathX: [Double]
  package var pathY: [Double]
  package var pathCurve: [Bool]
  /// How many bands the layers were wrapped into (1: one row).
  package var bands: Int
  /// The extent of the drawing, margins included.
  package var width: Double
  package var height: Double
  /// Edge crossings of the final order (counted between adjacent layers).
  package var crossings: Int
  /// How many ordering sweeps ran.
  package var sweeps: Int

  /// Lays out `widths.count` nodes joined by `edges`.
  ///
  /// - Parameters:
  ///   - widths: each node's width; `heights`: each node's height.
  ///   - edges: the edges; an edge that would go backwards (only in a cyclic input, which a
  ///     validated document never is) is drawn directly, without dummies.
  package init(widths: [Double], heights: [Double], edges: [Edge], options: Options = Options()) {
    precondition(widths.count == heights.count, "one height per width")
    var graph = LayeredGraph(nodeCount: widths.count, edges: edges, widths: widths, heights: heights)
    var ordering = LayerOrdering(graph: graph)
    let (crossings, sweeps) = ordering.reduceCrossings(in: graph, maximumSweeps: options.maximumSweeps)
    graph.layers = ordering.layers
    var placement = LayerPlacement(graph: graph, options: options)
    // Past 200,000 vertices (nodes plus dummies) half the placement sweeps: each is a pass of
    // random reads over every segment, and the first few do most of the straightening.
    let placementSweeps = graph.vertexCount > 200_000 ? min(4, options.placementSweeps) : options.placementSweeps
    placement.place(graph: graph, sweeps: placementSweeps)
    let bands = LayerBands(graph: graph, placement: &placement, options: options)
    let paths = EdgePaths(graph: graph, edges: edges, placement: placement, bands: bands)
    pathStart = paths.start
    pathX = paths.x
    pathY = paths.y
    pathCurve = paths.curve
    self.bands = max(1, bands.bandTop.count)
    self.crossings = crossings
    self.sweeps = sweeps
    let nodeCount = widths.count
    x = Array(placement.x.prefix(nodeCount))
    y = Array(placement.y.prefix(nodeCount))
    layer = Array(graph.vertexLayer.prefix(nodeCount))
    routeStart = []
    routeStart.reserveCapacity(edges.count + 1)
    routeX = []
    routeY = []
    for edge in edges.indices {
      routeStart.append(Int32(routeX.count))
      for dummy in graph.dummies(of: edge) {
        routeX.append(placement.x[Int(dummy)])
        routeY.append(placement.y[Int(dummy)])
      }
    }
    routeStart.append(Int32(routeX.count))
    width = bands.width
    height = bands.height
  }
}
