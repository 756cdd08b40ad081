import FlowGraph

/// Where the boxes go: the layered layout, or the positions the document holds.
extension GraphPicture {
  /// Groups with children are frames, not vertices of the layout.
  package var groupsWithChildren: Set<Int> {
    var parents = Set<Int>()
    for box in boxes { if let parent = box.parent, boxes[parent].isGroup { parents.insert(parent) } }
    return parents
  }

  /// Lays the boxes out in layers (`LayeredLayout`), then frames the groups around their children.
  package mutating func placeLayered(options: LayeredLayout.Options = LayeredLayout.Options()) {
    placeInsides()
    let frames = groupsWithChildren
    var vertexOf = [Int32](repeating: -1, count: boxes.count)
    var widths: [Double] = [], heights: [Double] = []
    for (index, box) in boxes.enumerated() where !frames.contains(index) {
      vertexOf[index] = Int32(widths.count)
      widths.append(box.width)
      heights.append(box.height)
    }
    let layoutEdges = edges.map { edge in
      LayeredLayout.Edge(
        source: vertexOf[Int(edge.source)], target: vertexOf[Int(edge.target)],
        sourcePortY: boxes[Int(edge.source)].outputY(Int(edge.sourcePort)),
        targetPortY: boxes[Int(edge.target)].inputY(Int(edge.targetPort)))
    }
    var margins = options
    margins.margin += 40  // room for group frames around the outermost nodes
    let layout = LayeredLayout(widths: widths, heights: heights, edges: layoutEdges, options: margins)
    crossings = layout.crossings
    sweeps = layout.sweeps
    bands = layout.bands
    for index in boxes.indices where vertexOf[index] >= 0 {
      boxes[index].x = layout.x[Int(vertexOf[index])]
      boxes[index].y = layout.y[Int(vertexOf[index])]
    }
    routes = edges.indices.map { edge in
      (Int(layout.routeStart[edge])..<Int(layout.routeStart[edge + 1])).map { (layout.routeX[$0], layout.routeY[$0]) }
    }
    paths = edges.indices.map { edge in
      (Int(layout.pathStart[edge])..<Int(layout.pathStart[edge + 1])).map {
        PathPoint(x: layout.pathX[$0], y: layout.pathY[$0], curve: layout.pathCurve[$0])
      }
    }
    placeFrames(frames)
    fitToContent()
  }

  /// Uses the document's positions and sizes (a box grows only where its text needs more room;
  /// a group is exactly its document size); each edge is one curve from port to port.
  package mutating func placeFromDocument(_ document: FlowDocument) {
    placeInsides()
    honourDocumentSizes(document)
    for (index, node) in document.nodes.enumerated() {
      boxes[index].x = Double(node.position.x)
      boxes[index].y = Double(node.position.y)
      if boxes[index].isGroup {
        boxes[index].width = Double(node.size.width)
        boxes[index].height = Double(node.size.height)
      }
    }
    routes = Array(repeating: [], count: edges.count)
    paths = []
    fitToContent()
  }

  /// Makes every box at least its node's size in `document` (the size an editor or `flow
  /// layout` gave it).
  package mutating func honourDocumentSizes(_ document: FlowDocument) {
    for (index, node) in document.nodes.enumerated() where index < boxes.count {
      boxes[index].width = max(boxes[index].width, Double(node.size.width))
      boxes[index].height = max(boxes[index].height, Double(node.size.height))
    }
  }

  /// Sets each framed group's rectangle around its children.
  package mutating func placeFrames(_ groups: Set<Int>) {
    guard !groups.isEmpty else { return }
    let frames = GroupFrames.frames(
      rects: boxes.map { GroupFrames.Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) },
      parent: boxes.map(\.parent), isGroup: boxes.map(\.isGroup))
    for (index, frame) in frames {
      boxes[index].x = frame.x
      boxes[index].y = frame.y
      boxes[index].width = frame.width
      boxes[index].height = frame.height
    }
  }

  /// Moves everything so the drawing starts at a 20-point margin, and sets its size.
  package mutating func fitToContent() {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    for box in boxes {
      minX = min(minX, box.x); minY = min(minY, box.y)
      maxX = max(maxX, box.x + box.width); maxY = max(maxY, box.y + box.height)
    }
    for route in routes {
      for point in route {
        minX = min(minX, point.x); minY = min(minY, point.y); maxX = max(maxX, point.x); maxY = max(maxY, point.y)
      }
    }
    for path in paths {
      for point in path {
        minX = min(minX, point.x); minY = min(minY, point.y); maxX = max(maxX, point.x); maxY = max(maxY, point.y)
      }
    }
    guard minX.isFinite else {
      width = 40
      height = 40
      return
    }
    let dx = 20 - minX, dy = 20 - minY
    for index in boxes.indices {
      boxes[index].x += dx
      boxes[index].y += dy
    }
    for edge in routes.indices {
      for point in routes[edge].indices {
        routes[edge][point].x += dx
        routes[edge][point].y += dy
      }
    }
    for edge in paths.indices {
      for point in paths[edge].indices {
        paths[edge][point].x += dx
        paths[edge][point].y += dy
      }
    }
    width = maxX - minX + 40
    height = maxY - minY + 40
  }
}
