import FlowGraph
import FlowHTTP
import FlowLayout
import Foundation

/// Moving nodes from the page: `POST /move` sets a node's position through the store (one
/// undoable mutation per drag; positions are not values, so nothing reruns), and the picture
/// draws a moved node where it was put.
///
/// The page lays the graph out in layers, so a node's document position (often `[0, 0]`, or
/// an editor's coordinates) is not where it is drawn. A node counts as moved by the page while
/// its position differs from the one it had before its first move here (`State.movedFrom`):
/// then it is drawn at its position, in the picture's coordinates, and its edges as direct
/// curves; an undo back to the old position puts it back in the layered layout.
extension ServeSession {
  /// The largest coordinate a move may set (a position lies in 0...this on both axes).
  static let maximumCoordinate = 1_000_000.0

  /// `{"node": id, "x": number, "y": number}`: the node's position, in the picture's
  /// coordinates (the page sends where the box was dropped).
  func move(_ body: [UInt8]) -> HTTPResponse {
    guard case .object(let object)? = try? JSONValue.parse(body), case .string(let id)? = object["node"],
      let x = Self.coordinate(object["x"]), let y = Self.coordinate(object["y"])
    else {
      return Self.json(400, ["error": "a move is {\"node\": id, \"x\": number, \"y\": number}"])
    }
    guard (0...Self.maximumCoordinate).contains(x), (0...Self.maximumCoordinate).contains(y) else {
      return Self.rejected([
        "error": .string("node '\(id)': a position lies in 0 to \(Int(Self.maximumCoordinate)) on both axes")
      ])
    }
    let store = engine.store
    guard var node = store.node(id: id) else { return Self.rejected(["error": .string("there is no node '\(id)'")]) }
    let before = node.position
    node.position = CGPoint(x: x, y: y)
    guard node.position != before else {
      return Self.json(200, ["ok": true, "revision": .integer(Int64(store.revision))])
    }
    state.withLock { state in
      if state.movedFrom[id] == nil { state.movedFrom[id] = before }
    }
    do {
      try store.updateNode(node)
    } catch {
      return Self.rejected(["error": .string(error.description)])
    }
    return Self.json(200, ["ok": true, "revision": .integer(Int64(store.revision))])
  }

  /// A JSON number as a coordinate, nil for anything else.
  static func coordinate(_ value: JSONValue?) -> Double? {
    switch value {
    case .integer(let whole)?: Double(whole)
    case .number(let number)? where number.isFinite: number
    default: nil
    }
  }

  /// Puts the boxes of the nodes the page moved at their positions (after the layered
  /// layout), draws their edges as direct curves, and grows the picture to hold them.
  ///
  /// - Complexity: O(boxes + edges).
  static func placeMoved(_ picture: inout GraphPicture, document: FlowDocument, movedFrom: [String: CGPoint]) {
    guard !movedFrom.isEmpty else { return }
    var moved = Set<Int>()
    for (index, node) in document.nodes.enumerated() where index < picture.boxes.count {
      guard let original = movedFrom[node.id], original != node.position, picture.boxes[index].id == node.id else {
        continue
      }
      picture.boxes[index].x = Double(node.position.x)
      picture.boxes[index].y = Double(node.position.y)
      moved.insert(index)
    }
    guard !moved.isEmpty else { return }
    for (index, edge) in picture.edges.enumerated()
    where moved.contains(Int(edge.source)) || moved.contains(Int(edge.target)) {
      if index < picture.paths.count { picture.paths[index] = [] }
      if index < picture.routes.count { picture.routes[index] = [] }
    }
    for box in picture.boxes {
      picture.width = max(picture.width, box.x + box.width + 20)
      picture.height = max(picture.height, box.y + box.height + 20)
    }
  }
}
