/// The drawn path of every edge, so that no edge passes under a node.
///
/// Nodes lie inside their layer's column, and inside a column every vertex (a node, or a
/// long edge's dummy) keeps a gap to the next. So a path that crosses columns only
/// horizontally, at the height of one of its own vertices, and bends only in the gaps between
/// columns (or in a wrapped drawing's channels) never meets a node:
/// - from the source's output port, straight right to its column's right edge;
/// - across each gap, a curve with horizontal ends to the next vertex's height at the next
///   column's left edge (a cubic Bézier whose control points stay in the gap, so the curve
///   does too);
/// - through a dummy's column, straight across at the dummy's height;
/// - into the target's column, straight to its input port.
/// A segment leaving a band's last column wraps through the channels (`LayerBands`), each in a
/// lane of its own (its own vertical beside the band, its own horizontal below it and its own
/// vertical left of the bands), so no two wrapped edges share a line.
///
/// Each path is a list of points from port to port; `pathCurve[i]` says whether the step into
/// point `i` is such a curve (otherwise a straight line).
struct EdgePaths {
  var start: [Int32] = [0]
  var x: [Double] = []
  var y: [Double] = []
  var curve: [Bool] = []

  /// The next free lane below and beside each band: every wrapped segment gets its own.
  private var nextLane: [Int] = []

  init(graph: LayeredGraph, edges: [LayeredLayout.Edge], placement: LayerPlacement, bands: LayerBands) {
    x.reserveCapacity(4 * edges.count + 2 * graph.vertexCount)
    nextLane = [Int](repeating: 0, count: bands.bandTop.count)
    for (index, edge) in edges.enumerated() {
      append(index, edge, graph: graph, placement: placement, bands: bands)
      start.append(Int32(x.count))
    }
  }

  private mutating func add(_ pointX: Double, _ pointY: Double, curved: Bool) {
    if let lastX = x.last, let lastY = y.last, Int32(x.count) > start[start.count - 1], lastX == pointX, lastY == pointY
    {
      return  // a step of length zero
    }
    x.append(pointX)
    y.append(pointY)
    curve.append(curved)
  }

  private mutating func append(
    _ index: Int, _ edge: LayeredLayout.Edge, graph: LayeredGraph, placement: LayerPlacement,
    bands: LayerBands
  ) {
    let source = Int(edge.source), target = Int(edge.target)
    let targetPoint = (x: placement.x[target], y: placement.y[target] + edge.targetPortY)
    var exitY = placement.y[source] + edge.sourcePortY
    add(placement.x[source] + graph.vertexWidth[source], exitY, curved: false)
    var layer = Int(graph.vertexLayer[source])
    guard Int(graph.vertexLayer[target]) > layer else {
      add(targetPoint.x, targetPoint.y, curved: true)  // only in a cyclic input: drawn directly
      return
    }
    let dummies = graph.dummies(of: index)
    for hop in 0...dummies.count {  // each dummy, then the target
      let next = hop < dummies.count ? dummies[dummies.startIndex + hop] : edge.target
      let vertex = Int(next)
      let entryY = graph.isDummy(next) ? placement.y[vertex] : targetPoint.y
      add(bands.columnLeft[layer] + bands.columnWidth[layer], exitY, curved: false)
      if bands.band(of: layer + 1) == bands.band(of: layer) {
        add(bands.columnLeft[layer + 1], entryY, curved: true)
      } else {
        let band = bands.band(of: layer)
        let lane = Double(nextLane[band]) * LayerBands.laneSpacing
        nextLane[band] += 1
        let right = bands.bandRight[band] + LayerBands.laneInset + lane
        let left = bands.leftChannel - LayerBands.laneInset - lane
        let across = bands.bandBottom[band] + LayerBands.laneDrop + lane
        add(right, exitY, curved: false)
        add(right, across, curved: false)
        add(left, across, curved: false)
        add(left, entryY, curved: false)
        add(bands.columnLeft[layer + 1], entryY, curved: false)
      }
      exitY = entryY
      layer += 1
    }
    add(targetPoint.x, targetPoint.y, curved: false)
  }
}
