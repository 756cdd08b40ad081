/// Wrapping a wide drawing: a layered drawing of a long chain is one row many times wider than
/// tall (the penguins pipeline: 21 nodes, 3,700 × 400 points). Past `Options.maximumWidth`
/// and `maximumAspectRatio`, the layers are cut into *bands* of consecutive layers stacked top
/// to bottom, like lines of text, with the fewest bands that bring the drawing within the
/// ratio or the width. Inside a band the columns keep their widths and order; each band keeps the vertical
/// placement of its vertices.
///
/// An edge segment leaving a band's last layer wraps: it runs right into a channel beside the
/// band, down into the gap below it, left along the gap into a channel left of every band, and
/// down to the next band's first column. Channels and gaps hold no node, so a wrapped edge
/// passes under none.
///
/// - Complexity: O(*V* + *L*) per band count tried, at most 16 of them.
struct LayerBands {
  /// Layers per band (`layerCount` when the drawing does not wrap).
  var layersPerBand: Int
  /// Left edge of each layer's column after wrapping.
  var columnLeft: [Double]
  var columnWidth: [Double]
  /// Right edge of each band's last column; top and bottom of each band.
  var bandRight: [Double] = []
  var bandTop: [Double] = []
  var bandBottom: [Double] = []
  /// The left channel's right edge (wrapped edges run just left of it).
  var leftChannel: Double
  var width: Double
  var height: Double
  /// The width of the channels beside the bands: at least `Options.channel`, and room for one
  /// lane per wrapped edge segment (`laneSpacing` apart), so no two wrapped edges share a line.
  var channel: Double
  /// The gap between bands: at least `Options.bandGap`, and room for one lane per wrapped edge.
  var bandGap = 0.0
  /// The distance between two wrapped edges' lanes.
  static let laneSpacing = 4.0
  /// A lane's distance from a band or column edge before the first lane.
  static let laneInset = 6.0
  /// How far below a band the first horizontal lane runs.
  static let laneDrop = 20.0

  var wraps: Bool { bandTop.count > 1 }
  func band(of layer: Int) -> Int { layer / layersPerBand }

  /// Chooses the bands for `placement` and moves every vertex into its band.
  init(graph: LayeredGraph, placement: inout LayerPlacement, options: LayeredLayout.Options) {
    let layerCount = graph.layerCount
    columnLeft = placement.columnLeft
    columnWidth = placement.columnWidth
    width = placement.width
    height = placement.height
    channel = LayerPlacement.grid(max(0, options.channel))
    leftChannel = LayerPlacement.grid(options.margin)
    layersPerBand = max(1, layerCount)
    guard layerCount >= 4, width > options.maximumWidth, width > options.maximumAspectRatio * height else { return }
    var layerTop = [Double](repeating: .infinity, count: layerCount)
    var layerBottom = [Double](repeating: -.infinity, count: layerCount)
    for vertex in 0..<graph.vertexCount {
      let layer = Int(graph.vertexLayer[vertex])
      layerTop[layer] = min(layerTop[layer], placement.y[vertex])
      layerBottom[layer] = max(layerBottom[layer], placement.y[vertex] + graph.vertexHeight[vertex])
    }
    let margin = LayerPlacement.grid(options.margin), gap = LayerPlacement.grid(options.layerGap)
    let bandGap = LayerPlacement.grid(options.bandGap)
    /// The drawing's size with `perBand` layers per band.
    func size(_ perBand: Int) -> (width: Double, height: Double) {
      var widest = 0.0, total = 0.0
      var start = 0
      while start < layerCount {
        let end = min(layerCount, start + perBand)
        var bandWidth = -gap, top = Double.infinity, bottom = -Double.infinity
        for layer in start..<end {
          bandWidth += columnWidth[layer] + gap
          top = min(top, layerTop[layer])
          bottom = max(bottom, layerBottom[layer])
        }
        widest = max(widest, bandWidth)
        total += bottom - top + (start > 0 ? bandGap : 0)
        start = end
      }
      return (widest + 2 * margin + 2 * channel, total + 2 * margin)
    }
    // The aspect ratio falls about as the square of the band count: start just below the
    // estimate and add bands until the drawing is within the ratio or the width.
    let estimate = (width / (options.maximumAspectRatio * height)).squareRoot()
    var bands = max(2, Int(estimate.rounded(.down)) - 1)
    var perBand = (layerCount + bands - 1) / bands
    for _ in 0..<16 where perBand > 2 {
      let (w, h) = size(perBand)
      if w <= options.maximumAspectRatio * h || w <= options.maximumWidth { break }
      bands += 1
      perBand = (layerCount + bands - 1) / bands
    }
    perBand = max(2, perBand)
    layersPerBand = perBand
    // One lane per segment leaving a band's last layer: the channels and gaps grow to hold them.
    var leaving = [Int](repeating: 0, count: layerCount)
    for segment in graph.segmentFrom.indices { leaving[Int(graph.vertexLayer[Int(graph.segmentFrom[segment])])] += 1 }
    var lanes = 0
    for layer in stride(from: perBand - 1, to: layerCount - 1, by: perBand) { lanes = max(lanes, leaving[layer]) }
    let laneRoom = 2 * Self.laneInset + Self.laneSpacing * Double(max(0, lanes - 1))
    channel = max(channel, LayerPlacement.gridUp(laneRoom))
    let wrappedGap = max(
      bandGap, LayerPlacement.gridUp(2 * Self.laneDrop + Self.laneSpacing * Double(max(0, lanes - 1))))
    self.bandGap = wrappedGap
    move(
      graph: graph, placement: &placement, perBand: perBand, layerTop: layerTop, layerBottom: layerBottom,
      margin: margin, gap: gap, bandGap: wrappedGap)
  }

  /// Moves every vertex into its band: columns restart after the left channel, bands stack
  /// down with `bandGap` between them.
  private mutating func move(
    graph: LayeredGraph, placement: inout LayerPlacement, perBand: Int, layerTop: [Double],
    layerBottom: [Double], margin: Double, gap: Double, bandGap: Double
  ) {
    let layerCount = graph.layerCount
    let bandCount = (layerCount + perBand - 1) / perBand
    leftChannel = margin + channel
    var shiftX = [Double](repeating: 0, count: layerCount)
    var shiftY = [Double](repeating: 0, count: bandCount)
    var top = margin
    var widest = 0.0
    for band in 0..<bandCount {
      let layers = (band * perBand)..<min(layerCount, (band + 1) * perBand)
      var left = leftChannel
      var oldTop = Double.infinity, oldBottom = -Double.infinity
      for layer in layers {
        shiftX[layer] = left - placement.columnLeft[layer]
        columnLeft[layer] = left
        left += columnWidth[layer] + gap
        oldTop = min(oldTop, layerTop[layer])
        oldBottom = max(oldBottom, layerBottom[layer])
      }
      shiftY[band] = top - oldTop
      bandRight.append(left - gap)
      bandTop.append(top)
      bandBottom.append(top + oldBottom - oldTop)
      widest = max(widest, left - gap)
      top += oldBottom - oldTop + bandGap
    }
    for vertex in 0..<graph.vertexCount {
      let layer = Int(graph.vertexLayer[vertex])
      placement.x[vertex] += shiftX[layer]
      placement.y[vertex] += shiftY[layer / perBand]
    }
    width = widest + channel + margin
    height = LayerPlacement.gridUp(top - bandGap + margin)
  }
}
