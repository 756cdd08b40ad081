/// Coordinate assignment: columns from layers, and vertical positions that keep each layer's
/// order and spacing while pulling every vertex toward its neighbours' ports.
///
/// For one layer in order v₀ … vₖ with minimum distances sᵢ (height plus gap), the positions
/// minimising Σ wᵢ (yᵢ − desiredᵢ)² subject to yᵢ₊₁ ≥ yᵢ + sᵢ are a weighted isotonic regression
/// of desiredᵢ − offsetᵢ (offsetᵢ = s₀ + … + sᵢ₋₁), solved in linear time by pool adjacent
/// violators. Dummies weigh more than nodes, so long edges run straight (the priority idea of
/// Sugiyama's and Brandes–Köpf's placements).
struct LayerPlacement {
  /// Left edge (a dummy: its centre) of every vertex.
  var x: [Double]
  /// Top edge (a dummy: its centre) of every vertex.
  var y: [Double]
  var width = 0.0
  var height = 0.0
  /// Left edge and width of each layer's column (every vertex of the layer lies inside it).
  var columnLeft: [Double] = []
  var columnWidth: [Double] = []
  let options: LayeredLayout.Options

  /// Columns on the half-point grid (widths rounded up), each node centred in its column and
  /// moved left onto the grid, so every node stays inside its column.
  init(graph: LayeredGraph, options: LayeredLayout.Options) {
    self.options = options
    x = [Double](repeating: 0, count: graph.vertexCount)
    y = [Double](repeating: 0, count: graph.vertexCount)
    var left = LayerPlacement.grid(options.margin)
    for layer in graph.layers {
      let columnWidth = LayerPlacement.gridUp(layer.reduce(0.0) { max($0, graph.vertexWidth[Int($1)]) })
      var top = 0.0
      for vertex in layer {
        let v = Int(vertex)
        let offset = graph.isDummy(vertex) ? columnWidth / 2 : (columnWidth - graph.vertexWidth[v]) / 2
        x[v] = left + LayerPlacement.gridDown(offset)
        y[v] = top
        top += graph.vertexHeight[v] + gap(graph, vertex)
      }
      columnLeft.append(left)
      self.columnWidth.append(columnWidth)
      width = left + columnWidth + options.margin
      left += columnWidth + LayerPlacement.grid(options.layerGap)
    }
    if graph.layers.isEmpty { width = 2 * options.margin }
  }

  /// `value` on the half-point grid: nearest, up, down.
  static func grid(_ value: Double) -> Double { (value * 2).rounded() / 2 }
  static func gridUp(_ value: Double) -> Double { (value * 2).rounded(.up) / 2 }
  static func gridDown(_ value: Double) -> Double { (value * 2).rounded(.down) / 2 }

  func gap(_ graph: LayeredGraph, _ vertex: Int32) -> Double {
    graph.isDummy(vertex) ? options.dummyGap : options.nodeGap
  }

  /// Runs `sweeps` placement sweeps (down, up, …; the last one looks both ways), then moves the
  /// drawing to the margin.
  mutating func place(graph: LayeredGraph, sweeps: Int) {
    var blocks: [(weight: Double, sum: Double, count: Int)] = []
    var targets: [Double] = []
    var weights: [Double] = []
    var offsets: [Double] = []
    for sweep in 0..<sweeps {
      let last = sweep == sweeps - 1
      let downward = sweep % 2 == 0
      let order: [Int] = downward ? Array(0..<graph.layerCount) : Array((0..<graph.layerCount).reversed())
      for layerIndex in order {
        let layer = graph.layers[layerIndex]
        targets.removeAll(keepingCapacity: true)
        weights.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        var offset = 0.0
        for vertex in layer {
          // The last sweep looks both ways, except that a dummy follows its predecessor only, so
          // a long edge's dummies line up behind its first one wherever the spacing allows.
          let dummy = graph.isDummy(vertex)
          let desired = self.desired(
            vertex, graph: graph, incoming: last || downward, outgoing: (last && !dummy) || !downward)
          offsets.append(offset)
          targets.append(desired - offset)
          weights.append(dummy ? 8 : 1)
          offset += graph.vertexHeight[Int(vertex)] + gap(graph, vertex)
        }
        Self.isotonicFit(&targets, weights: weights, blocks: &blocks)
        for (index, vertex) in layer.enumerated() { y[Int(vertex)] = targets[index] + offsets[index] }
      }
    }
    var top = Double.infinity
    var bottom = -Double.infinity
    for vertex in 0..<graph.vertexCount {
      top = min(top, y[vertex])
      bottom = max(bottom, y[vertex] + graph.vertexHeight[vertex])
    }
    if top.isFinite {
      // Onto the half-point grid: rounding moves a vertex by at most a quarter point, far less
      // than the gaps, so the order and spacing of each column hold.
      let shift = options.margin - top
      for vertex in 0..<graph.vertexCount { y[vertex] = Self.grid(y[vertex] + shift) }
      height = Self.gridUp(bottom - top + 2 * options.margin)
    } else {
      height = 2 * options.margin
    }
  }

  /// Where `vertex`'s top should be so its ports line up with its neighbours' (the mean over
  /// its segments); its current place if it has none in the directions asked for.
  func desired(_ vertex: Int32, graph: LayeredGraph, incoming: Bool, outgoing: Bool) -> Double {
    let v = Int(vertex)
    var sum = 0.0
    var count = 0
    if incoming {
      for index in Int(graph.inStart[v])..<Int(graph.inStart[v + 1]) {
        let segment = Int(graph.inSegment[index])
        sum += y[Int(graph.segmentFrom[segment])] + graph.segmentFromY[segment] - graph.segmentToY[segment]
        count += 1
      }
    }
    if outgoing {
      for index in Int(graph.outStart[v])..<Int(graph.outStart[v + 1]) {
        let segment = Int(graph.outSegment[index])
        sum += y[Int(graph.segmentTo[segment])] + graph.segmentToY[segment] - graph.segmentFromY[segment]
        count += 1
      }
    }
    return count > 0 ? sum / Double(count) : y[v]
  }

  /// Replaces `values` by the nondecreasing sequence closest to them in weighted least squares
  /// (pool adjacent violators).
  ///
  /// - Complexity: O(*n*).
  static func isotonicFit(
    _ values: inout [Double], weights: [Double],
    blocks: inout [(weight: Double, sum: Double, count: Int)]
  ) {
    blocks.removeAll(keepingCapacity: true)
    for (index, value) in values.enumerated() {
      blocks.append((weights[index], weights[index] * value, 1))
      while blocks.count >= 2 {
        let last = blocks[blocks.count - 1]
        let previous = blocks[blocks.count - 2]
        guard previous.sum / previous.weight > last.sum / last.weight else { break }
        blocks.removeLast()
        blocks[blocks.count - 1] = (previous.weight + last.weight, previous.sum + last.sum, previous.count + last.count)
      }
    }
    var index = 0
    for block in blocks {
      let mean = block.sum / block.weight
      for _ in 0..<block.count {
        values[index] = mean
        index += 1
      }
    }
  }
}
