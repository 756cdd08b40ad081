import Foundation
import FlowGraph

/// A layered (left-to-right) layout of a validated graph, for a host that draws the graph
/// itself: an editor auto-laying-out a document in-app, or a tool writing positions back.
///
/// Sources sit in the first columns, each node's inputs on its left and outputs on its right;
/// the order inside each column keeps edge crossings low; a group with children becomes the
/// frame around them. `flow layout` is this type plus writing the document.
///
/// ```swift
/// let graph = try DocumentValidator.validate(document, catalog: registry)
/// let layout = GraphLayout(graph)                 // the document's node sizes
/// layout.apply(to: &document)                     // positions written into the nodes
/// let origin = layout.positions["price"]          // or read them one by one
/// ```
///
/// - Complexity: O(*S* · (*V* + *E*) log *V*) for a bounded number *S* of sweeps over the
///   nodes, the long edges' bend points and the edges (see `Documentation/Layout.md`).
public struct GraphLayout: Sendable {
  /// How big each node is while the layout places it.
  public enum Sizing: Sendable, Hashable {
    /// Each node's `size` in the document: what an editor that draws its own nodes shows.
    case document
    /// The boxes `flow render` draws (measured from their titles, params and ports), never
    /// smaller than the document's size. `flow layout` uses this and writes the sizes back, so
    /// `flow render --layout document` draws the same boxes without overlaps.
    case picture
  }

  /// The top-left corner of each node, by node id.
  public var positions: [String: CGPoint]
  /// The size each node was laid out with, by node id (a group with children: its frame).
  public var sizes: [String: CGSize]
  /// The extent of the drawing, margins included (every position lies inside it).
  public var size: CGSize
  /// For each document edge (by its index in `document.edges`), the points it bends through
  /// between its two ports: one per column it crosses. Drawing it as a curve through them keeps
  /// it clear of the nodes.
  public var bends: [[CGPoint]]

  /// Lays out `graph`.
  ///
  /// - Parameters:
  ///   - graph: a validated document (`DocumentValidator.validate`).
  ///   - sizing: the node sizes to lay out with.
  public init(_ graph: ResolvedGraph, sizing: Sizing = .document) {
    var picture = GraphPicture(graph: graph, values: nil)
    if sizing == .document {
      for (index, node) in graph.document.nodes.enumerated() {
        picture.boxes[index].width = Double(node.size.width)
        picture.boxes[index].height = Double(node.size.height)
        picture.boxes[index].spreadsPorts = true
      }
    } else {
      picture.honourDocumentSizes(graph.document)
    }
    picture.placeLayered()
    var positions: [String: CGPoint] = [:], sizes: [String: CGSize] = [:]
    positions.reserveCapacity(picture.boxes.count)
    sizes.reserveCapacity(picture.boxes.count)
    for box in picture.boxes {
      positions[box.id] = CGPoint(x: box.x, y: box.y)
      sizes[box.id] = CGSize(width: box.width, height: box.height)
    }
    self.positions = positions
    self.sizes = sizes
    size = CGSize(width: picture.width, height: picture.height)
    var bends = [[CGPoint]](repeating: [], count: graph.document.edges.count)
    for (index, edge) in picture.edges.enumerated() where index < picture.routes.count {
      bends[Int(edge.documentIndex)] = picture.routes[index].map { CGPoint(x: $0.x, y: $0.y) }
    }
    self.bends = bends
  }

  /// Writes the positions into `document`'s nodes (and, with `.picture` sizing, the sizes laid
  /// out with); every other field is kept. Nodes the layout does not know are left alone.
  public func apply(to document: inout FlowDocument, sizes writeSizes: Bool = false) {
    for index in document.nodes.indices {
      let id = document.nodes[index].id
      if let position = positions[id] { document.nodes[index].position = position }
      if writeSizes, let size = sizes[id] { document.nodes[index].size = size }
    }
  }
}
