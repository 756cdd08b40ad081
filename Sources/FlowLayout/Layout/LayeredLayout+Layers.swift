import FlowGraph

/// The layered graph: nodes, dummies, and the segments joining adjacent layers.
///
/// Vertices `0..<nodeCount` are the nodes; the rest are dummies, created for each long edge in
/// edge order. Segments are stored in CSR form both ways (`inStart`/`inSegment`,
/// `outStart`/`outSegment`). Invariant: every segment joins layer *l* to layer *l* + 1.
struct LayeredGraph {
  var nodeCount: Int
  var vertexLayer: [Int32] = []
  var vertexWidth: [Double] = []
  var vertexHeight: [Double] = []
  var layerCount = 0
  /// Vertices of each layer, in their current order.
  var layers: [[Int32]] = []
  /// Segment endpoints and where on each endpoint it attaches (0 for a dummy).
  var segmentFrom: [Int32] = []
  var segmentTo: [Int32] = []
  var segmentFromY: [Double] = []
  var segmentToY: [Double] = []
  var inStart: [Int32] = []
  var inSegment: [Int32] = []
  var outStart: [Int32] = []
  var outSegment: [Int32] = []
  /// The dummies of edge `e`: `dummyList[dummyStart[e]..<dummyStart[e + 1]]`.
  var dummyStart: [Int32] = []
  var dummyList: [Int32] = []

  var vertexCount: Int { vertexLayer.count }
  func isDummy(_ vertex: Int32) -> Bool { Int(vertex) >= nodeCount }
  func dummies(of edge: Int) -> ArraySlice<Int32> { dummyList[Int(dummyStart[edge])..<Int(dummyStart[edge + 1])] }

  init(nodeCount: Int, edges: [LayeredLayout.Edge], widths: [Double], heights: [Double]) {
    self.nodeCount = nodeCount
    let nodeLayer = Self.longestPathLayers(nodeCount: nodeCount, edges: edges)
    vertexLayer = nodeLayer
    vertexWidth = widths
    vertexHeight = heights
    layerCount = Int((nodeLayer.max() ?? -1) + 1)
    dummyStart.reserveCapacity(edges.count + 1)
    for edge in edges {
      dummyStart.append(Int32(dummyList.count))
      let from = nodeLayer[Int(edge.source)]
      let to = nodeLayer[Int(edge.target)]
      guard to > from else { continue }  // only in a cyclic input: drawn directly
      var previous = edge.source
      var previousY = edge.sourcePortY
      var current = from + 1
      while current < to {
        let dummy = Int32(vertexLayer.count)
        vertexLayer.append(current)
        vertexWidth.append(0)
        vertexHeight.append(0)
        dummyList.append(dummy)
        addSegment(previous, previousY, dummy, 0)
        previous = dummy
        previousY = 0
        current += 1
      }
      addSegment(previous, previousY, edge.target, edge.targetPortY)
    }
    dummyStart.append(Int32(dummyList.count))
    buildAdjacency()
    layers = Array(repeating: [], count: layerCount)
    for vertex in 0..<vertexCount { layers[Int(vertexLayer[vertex])].append(Int32(vertex)) }
  }

  mutating func addSegment(_ from: Int32, _ fromY: Double, _ to: Int32, _ toY: Double) {
    segmentFrom.append(from)
    segmentTo.append(to)
    segmentFromY.append(fromY)
    segmentToY.append(toY)
  }

  /// Counting sort of the segments by each end.
  mutating func buildAdjacency() {
    let count = vertexCount
    inStart = [Int32](repeating: 0, count: count + 1)
    outStart = [Int32](repeating: 0, count: count + 1)
    for segment in segmentFrom.indices {
      outStart[Int(segmentFrom[segment]) + 1] += 1
      inStart[Int(segmentTo[segment]) + 1] += 1
    }
    for vertex in 0..<count {
      outStart[vertex + 1] += outStart[vertex]
      inStart[vertex + 1] += inStart[vertex]
    }
    var outFill = outStart
    var inFill = inStart
    outSegment = [Int32](repeating: 0, count: segmentFrom.count)
    inSegment = [Int32](repeating: 0, count: segmentFrom.count)
    for segment in segmentFrom.indices {
      let from = Int(segmentFrom[segment])
      let to = Int(segmentTo[segment])
      outSegment[Int(outFill[from])] = Int32(segment)
      outFill[from] += 1
      inSegment[Int(inFill[to])] = Int32(segment)
      inFill[to] += 1
    }
  }

  /// Longest-path layers over the graph's topological order (`TopologicalOrder.sorting`, the
  /// one the validator uses); then each source with successors moves right to the layer before
  /// its nearest successor, so inputs sit next to what they feed. Nodes left out of the order
  /// (on a cycle, never in a validated graph) stay in layer 0.
  ///
  /// - Complexity: O(*n* + *m*).
  static func longestPathLayers(nodeCount: Int, edges: [LayeredLayout.Edge]) -> [Int32] {
    let successors = SuccessorLists(nodeCount: nodeCount, edges: edges) { ($0.source, $0.target) }
    let order = TopologicalOrder.sorting(successors).order
    var hasPredecessor = [Bool](repeating: false, count: nodeCount)
    for edge in edges { hasPredecessor[Int(edge.target)] = true }
    var layer = [Int32](repeating: 0, count: nodeCount)
    for node in order {
      for next in successors[Int(node)] { layer[Int(next)] = max(layer[Int(next)], layer[Int(node)] + 1) }
    }
    for node in order where !hasPredecessor[Int(node)] && !successors[Int(node)].isEmpty {
      var nearest = Int32.max
      for next in successors[Int(node)] { nearest = min(nearest, layer[Int(next)]) }
      layer[Int(node)] = max(0, nearest - 1)
    }
    return layer
  }
}
