/// Crossing reduction: the order of the vertices inside each layer.
///
/// Invariant: `position[v]` is `v`'s index in `layers[layer(v)]`.
struct LayerOrdering {
  var layers: [[Int32]]
  var position: [Int32]

  init(graph: LayeredGraph) {
    layers = graph.layers
    position = [Int32](repeating: 0, count: graph.vertexCount)
    for layer in layers { for (index, vertex) in layer.enumerated() { position[Int(vertex)] = Int32(index) } }
  }

  /// Sweeps down and up, alternately, keeping the order with the fewest crossings; stops after
  /// `maximumSweeps`, at zero crossings, or after four sweeps without a 1% improvement.
  ///
  /// - Returns: the crossings of the kept order and the number of sweeps run.
  mutating func reduceCrossings(in graph: LayeredGraph, maximumSweeps: Int) -> (crossings: Int, sweeps: Int) {
    var best = crossings(in: graph)
    var bestLayers = layers
    var sweeps = 0
    var sinceImprovement = 0
    while sweeps < maximumSweeps && best > 0 && sinceImprovement < 4 {
      sweep(graph, downward: sweeps % 2 == 0)
      sweeps += 1
      let count = crossings(in: graph)
      if count < best {
        // Only a gain of at least 1% resets the patience: big tangled graphs creep down by a
        // hair per sweep, and those sweeps are not worth their time.
        sinceImprovement = best - count >= max(1, best / 100) ? 0 : sinceImprovement + 1
        best = count
        bestLayers = layers
      } else {
        sinceImprovement += 1
      }
    }
    layers = bestLayers
    for layer in layers { for (index, vertex) in layer.enumerated() { position[Int(vertex)] = Int32(index) } }
    return (best, sweeps)
  }

  /// One barycentre sweep: each layer is sorted by the mean position of its neighbours in the
  /// layer before it (downward) or after it (upward). A port's place on its node shifts the
  /// position by less than one, so a node's ports stay in order. A vertex without neighbours
  /// there keeps its position. The sort is stable (ties keep the current order).
  mutating func sweep(_ graph: LayeredGraph, downward: Bool) {
    let layerIndices: [Int] =
      downward ? Array(1..<max(1, graph.layerCount)) : Array((0..<max(0, graph.layerCount - 1)).reversed())
    var keyed: [(key: Double, index: Int32, vertex: Int32)] = []
    for layerIndex in layerIndices {
      keyed.removeAll(keepingCapacity: true)
      for vertex in layers[layerIndex] {
        let v = Int(vertex)
        var sum = 0.0
        var count = 0
        let (start, end) =
          downward ? (graph.inStart[v], graph.inStart[v + 1]) : (graph.outStart[v], graph.outStart[v + 1])
        for index in Int(start)..<Int(end) {
          let segment = Int(downward ? graph.inSegment[index] : graph.outSegment[index])
          let neighbour = downward ? graph.segmentFrom[segment] : graph.segmentTo[segment]
          let portY = downward ? graph.segmentFromY[segment] : graph.segmentToY[segment]
          let height = graph.vertexHeight[Int(neighbour)]
          let shift = height > 0 ? (portY / height - 0.5) * 0.8 : 0
          sum += Double(position[Int(neighbour)]) + shift
          count += 1
        }
        keyed.append((count > 0 ? sum / Double(count) : Double(position[v]), position[v], vertex))
      }
      keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
      for (index, entry) in keyed.enumerated() {
        layers[layerIndex][index] = entry.vertex
        position[Int(entry.vertex)] = Int32(index)
      }
    }
  }

  /// Crossings between every pair of adjacent layers.
  func crossings(in graph: LayeredGraph) -> Int {
    var total = 0
    var targets: [Int32] = []
    var tree: [Int32] = []
    for layerIndex in 0..<max(0, graph.layerCount - 1) {
      targets.removeAll(keepingCapacity: true)
      for vertex in layers[layerIndex] {
        let v = Int(vertex)
        let first = targets.count
        for index in Int(graph.outStart[v])..<Int(graph.outStart[v + 1]) {
          targets.append(position[Int(graph.segmentTo[Int(graph.outSegment[index])])])
        }
        Self.sortTail(&targets, from: first)
      }
      total += Self.inversions(targets, bound: layers[layerIndex + 1].count, tree: &tree)
    }
    return total
  }

  /// Sorts `values[from...]` in place: insertion sort for the usual handful of out-edges, a
  /// copy sorted aside for a node with many (sorting the slice through `values[from...]` may
  /// copy the whole array, which made this quadratic).
  static func sortTail(_ values: inout [Int32], from: Int) {
    let count = values.count - from
    if count < 2 { return }
    if count <= 24 {
      for index in (from + 1)..<values.count {
        let value = values[index]
        var hole = index
        while hole > from && values[hole - 1] > value {
          values[hole] = values[hole - 1]
          hole -= 1
        }
        values[hole] = value
      }
      return
    }
    let sorted = values[from...].sorted()
    values.replaceSubrange(from..., with: sorted)
  }

  /// Pairs `i < j` with `values[i] > values[j]`, with a Fenwick tree over `0..<bound`.
  ///
  /// - Complexity: O(*n* log `bound`).
  static func inversions(_ values: [Int32], bound: Int, tree: inout [Int32]) -> Int {
    tree.removeAll(keepingCapacity: true)
    tree.append(contentsOf: repeatElement(0, count: bound + 1))
    var inversions = 0
    for (seen, value) in values.enumerated() {
      // Count the earlier values ≤ value; the rest are greater.
      var index = Int(value) + 1
      var notGreater = 0
      while index > 0 {
        notGreater += Int(tree[index])
        index -= index & -index
      }
      inversions += seen - notGreater
      index = Int(value) + 1
      while index <= bound {
        tree[index] += 1
        index += index & -index
      }
    }
    return inversions
  }
}
