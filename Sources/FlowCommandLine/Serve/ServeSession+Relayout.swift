import FlowLayout
import FlowGraph
import FlowRuntime

/// Laying the page out again when values arrive: the picture is measured with the values it
/// was drawn with, so a pass whose values need boxes of other sizes (a longer number, a table
/// preview, a message) makes the picture stale; the structure is bumped and the pages fetch the
/// new picture, so no text runs over another node.
///
/// Invariant: `State.drawnShapes` holds, for the picture in `State.picture`, each node's
/// `shape` as it was drawn.
extension ServeSession {
  /// What of node `id`'s values decides its picture: the drawn length of each output's text,
  /// the table preview's line lengths and text, and the wrapped message's line lengths and text.
  static func shape(of id: String, in snapshot: GraphEvaluator) -> [Int] {
    var shape: [Int] = []
    if let failure = snapshot.failure(of: id) {
      // The message is drawn in the picture, wrapped inside the box: another message (even
      // of the same line lengths) needs a new picture.
      shape.append(-1)
      shape += GraphPicture.wrap("! " + failure).map(\.count)
      shape.append(failure.hashValue)
      return shape
    }
    for (port, value) in snapshot.portValues(of: id) ?? [] {
      shape.append(GraphPicture.clip("\(port) = \(GraphPicture.summary(of: value))").count)
      if case .table(let table) = value {
        // The preview's line lengths size the box; its text is drawn in the picture, so a
        // change of the text alone (same lengths) needs a new picture too.
        let preview = GraphPicture.tablePreview(table)
        shape += preview.map(\.count)
        shape.append(preview.hashValue)
      }
    }
    return shape
  }

  /// Each node's shape in `snapshot`, for the picture drawn with it.
  static func shapes(_ snapshot: GraphEvaluator?) -> [String: [Int]] {
    guard let snapshot else { return [:] }
    var shapes: [String: [Int]] = [:]
    shapes.reserveCapacity(snapshot.presentNodeIDs.count)
    for id in snapshot.presentNodeIDs { shapes[id] = shape(of: id, in: snapshot) }
    return shapes
  }

  /// After a pass: whether a node that ran or failed now needs a box of another size than the
  /// drawn picture gave it; if so the structure is bumped (the caller tells the pages).
  ///
  /// - Complexity: O(nodes that ran or failed in the pass).
  static func needsRelayout(_ report: EvaluationReport, snapshot: GraphEvaluator, state: inout State) -> Bool {
    guard let picture = state.picture, picture.structure == state.structure else { return false }
    for id in report.ran + report.failed.keys
    where state.drawnShapes[id].map({ $0 != shape(of: id, in: snapshot) }) ?? false {
      state.structure += 1
      return true
    }
    return false
  }
}
