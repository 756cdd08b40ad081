/// Frames around groups: each group that has children gets the rectangle around them (and
/// around its child groups' frames), plus padding and room for its title.
///
/// Nodes are processed deepest first (a counting sort by depth; depths come from walking
/// `parent` links with memoisation, no recursion), so a group's frame is complete before it is
/// added to its own parent's. A `parent` cycle (never in a valid document) is cut.
///
/// - Complexity: O(*n*).
enum GroupFrames {
  struct Rect: Equatable {
    var x, y, width, height: Double
  }

  /// - Parameters:
  ///   - rects: every node's rectangle (a group's own entry is ignored when it has children).
  ///   - parent: each node's parent index, if any.
  ///   - isGroup: whether each node is a group.
  /// - Returns: the frame of every group that has children, by node index.
  static func frames(
    rects: [Rect], parent: [Int?], isGroup: [Bool], padding: Double = 16,
    titleHeight: Double = 22
  ) -> [Int: Rect] {
    let count = rects.count
    var depth = [Int](repeating: -1, count: count)
    var path: [Int] = []
    for start in 0..<count where depth[start] < 0 {
      path.removeAll(keepingCapacity: true)
      var node = start
      var base = 0
      while depth[node] < 0 {
        depth[node] = -2  // on the current path
        path.append(node)
        guard let up = parent[node], up >= 0, up < count, isGroup[up] else { break }
        if depth[up] == -2 { break }  // a cycle: cut here
        if depth[up] >= 0 { base = depth[up] + 1; break }
        node = up
      }
      for (offset, member) in path.reversed().enumerated() { depth[member] = base + offset }
    }
    let maximumDepth = depth.max() ?? 0
    var byDepth = [[Int]](repeating: [], count: maximumDepth + 1)
    for node in 0..<count { byDepth[depth[node]].append(node) }
    var bounds: [Int: Rect] = [:]
    var frames: [Int: Rect] = [:]
    for level in byDepth.reversed() {
      for node in level {
        var rect = rects[node]
        if isGroup[node], let inner = bounds[node] {
          rect = Rect(
            x: inner.x - padding, y: inner.y - padding - titleHeight,
            width: inner.width + 2 * padding, height: inner.height + 2 * padding + titleHeight)
          frames[node] = rect
        }
        guard let up = parent[node], up >= 0, up < count, isGroup[up], depth[up] < depth[node] else { continue }
        if let existing = bounds[up] {
          let minX = min(existing.x, rect.x), minY = min(existing.y, rect.y)
          let maxX = max(existing.x + existing.width, rect.x + rect.width)
          let maxY = max(existing.y + existing.height, rect.y + rect.height)
          bounds[up] = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        } else {
          bounds[up] = rect
        }
      }
    }
    return frames
  }
}
