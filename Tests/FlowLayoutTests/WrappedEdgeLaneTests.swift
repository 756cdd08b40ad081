import Foundation
import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowLayout

/// A drawing wrapped into bands: no two node boxes overlap, and an edge that wraps to another
/// row shares no line with any other edge (each runs in a lane of its own), so which node feeds
/// which can be told — on random DAGs forced to wrap.
@Suite struct WrappedEdgeLaneTests {
  /// A straight step of a path: level or upright.
  struct Segment {
    var x1, y1, x2, y2: Double
    var isLevel: Bool { y1 == y2 }

    /// Whether the two share a stretch of positive length.
    func overlaps(_ other: Segment) -> Bool {
      if isLevel && other.isLevel && y1 == other.y1 {
        return min(max(x1, x2), max(other.x1, other.x2)) - max(min(x1, x2), min(other.x1, other.x2)) > 0
      }
      if !isLevel && !other.isLevel && x1 == other.x1 {
        return min(max(y1, y2), max(other.y1, other.y2)) - max(min(y1, y2), min(other.y1, other.y2)) > 0
      }
      return false
    }
  }

  /// The straight level or upright steps of `path`.
  static func segments(_ path: [GraphPicture.PathPoint]) -> [Segment] {
    path.indices.dropFirst().compactMap { step in
      let from = path[step - 1], to = path[step]
      guard !to.curve, from.x == to.x || from.y == to.y else { return nil }
      return Segment(x1: from.x, y1: from.y, x2: to.x, y2: to.y)
    }
  }

  @Test(arguments: 0..<150)
  func wrappedEdgesShareNoLineAndBoxesDoNotOverlap(seed: Int) throws {
    let graph = try EdgeRoutingTests.randomGraph(seed: UInt64(seed))
    var options = LayeredLayout.Options()
    options.maximumWidth = 200
    options.maximumAspectRatio = 0.5
    var picture = GraphPicture(graph: graph, values: nil)
    picture.placeLayered(options: options)
    let boxes = picture.boxes
    // Sorted by left edge: each box is compared with those that start before it ends.
    let order = boxes.indices.sorted { boxes[$0].x < boxes[$1].x }
    for (rank, a) in order.enumerated() {
      for b in order[(rank + 1)...] {
        guard boxes[b].x < boxes[a].x + boxes[a].width else { break }
        let apart = boxes[b].y >= boxes[a].y + boxes[a].height || boxes[a].y >= boxes[b].y + boxes[b].height
        #expect(apart, "seed \(seed): \(boxes[a].id) and \(boxes[b].id) overlap")
      }
    }
    let segments = picture.paths.map(Self.segments)
    // A wrapped edge is the one with an upright straight step (the channels).
    let wrapped = segments.indices.filter { segments[$0].contains { !$0.isLevel } }
    Self.expectOwnLanes(picture, wrapped: wrapped, segments: segments, "seed \(seed)")
  }

  /// Many long edges cross each band boundary (16 segments: more than the channels held
  /// before lanes were counted): still one lane each.
  @Test func manyWrappedEdgesEachGetALane() throws {
    var pairs: [(Int, Int)] = []
    for start in 0..<40 { for span in [1, 3, 5, 7] where start + span < 40 { pairs.append((start, start + span)) } }
    let graph = try DocumentValidator.validate(
      DocumentBuilder.mergeGraph(count: 40, edges: pairs), catalog: TestCatalog())
    var picture = GraphPicture(graph: graph, values: nil)
    picture.placeLayered()
    #expect(picture.bands > 1)
    let segments = picture.paths.map(Self.segments)
    let wrapped = segments.indices.filter { segments[$0].contains { !$0.isLevel } }
    #expect(wrapped.count > 16, "\(wrapped.count) wrapped edges")
    Self.expectOwnLanes(picture, wrapped: wrapped, segments: segments, "40 nodes, spans 1, 3, 5, 7")
    EdgeRoutingTests.expectClear(picture, "40 nodes, spans 1, 3, 5, 7")
  }

  /// Records every straight stretch a wrapped edge shares with another edge (two edges from one
  /// port may share the stub leaving it).
  static func expectOwnLanes(
    _ picture: GraphPicture, wrapped: [Int], segments: [[Segment]], _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for edge in wrapped {
      for other in picture.edges.indices where other != edge {
        let sameSource =
          picture.edges[edge].source == picture.edges[other].source
          && picture.edges[edge].sourcePort == picture.edges[other].sourcePort
        let stubY = picture.paths[edge].first?.y
        for mine in segments[edge] {
          for theirs in segments[other] where mine.overlaps(theirs) {
            // Two edges from one port leave it along one stub.
            if sameSource && mine.isLevel && mine.y1 == stubY { continue }
            Issue.record(
              "\(context): wrapped edge \(edge) shares \(mine) with edge \(other) (\(theirs))",
              sourceLocation: sourceLocation)
          }
        }
      }
    }
  }
}
