import Foundation
import Testing

import FlowGraph
import FlowTestSupport

/// A plain model of the store that keeps whole `FlowNode` and `FlowEdge` values in insertion
/// order: what the store's compact records must give back exactly (handles given or not,
/// `parentID`, `label`, path type, selection), with brute-force checks and whole copies for
/// undo. Every node is a `merge` with 1–3 inputs `in0`… and the output `out`.
private struct RecordModel: Equatable {
  var nodes: [FlowNode] = []
  var edges: [FlowEdge] = []

  static func inputCount(of node: FlowNode) -> Int { Int(node.data.params["inputs"]?.numberValue ?? 2) }

  func node(_ id: String) -> FlowNode? { nodes.first { $0.id == id } }

  /// The input port `edge` enters at its target when that target is `target`, or `nil`.
  static func port(of edge: FlowEdge, into target: FlowNode) -> Int? {
    let count = inputCount(of: target)
    guard let handle = edge.targetHandleID else { return count == 1 ? 0 : nil }
    guard handle.hasPrefix("in"), let port = Int(handle.dropFirst(2)), port < count else { return nil }
    return port
  }

  func reaches(_ source: String, _ target: String, without excluded: String?) -> Bool {
    var seen: Set = [source]
    var stack = [source]
    while let node = stack.popLast() {
      if node == target { return true }
      for edge in edges
      where edge.id != excluded && edge.sourceNodeID == node && seen.insert(edge.targetNodeID).inserted {
        stack.append(edge.targetNodeID)
      }
    }
    return false
  }

  /// Whether `edge` may be attached in the graph, `excluded` (the edge it replaces) left out.
  func fits(_ edge: FlowEdge, excluding excluded: String?) -> Bool {
    guard node(edge.sourceNodeID) != nil, let target = node(edge.targetNodeID),
      edge.sourceHandleID == nil || edge.sourceHandleID == "out", let port = Self.port(of: edge, into: target)
    else { return false }
    let taken = edges.contains { other in
      other.id != excluded && other.targetNodeID == target.id && Self.port(of: other, into: target) == port
    }
    return !taken && !reaches(edge.targetNodeID, edge.sourceNodeID, without: excluded)
  }

  /// Applies the edit; whether the store must accept it.
  mutating func apply(_ edit: RecordEdit) -> Bool {
    switch edit {
    case .addNode(let node):
      guard self.node(node.id) == nil else { return false }
      nodes.append(node)
    case .removeNode(let id):
      guard self.node(id) != nil else { return false }
      nodes.removeAll { $0.id == id }
      edges.removeAll { $0.sourceNodeID == id || $0.targetNodeID == id }
    case .updateNode(let node):
      guard let index = nodes.firstIndex(where: { $0.id == node.id }) else { return false }
      var ports: Set<Int> = []
      for edge in edges where edge.targetNodeID == node.id {
        guard let port = Self.port(of: edge, into: node), ports.insert(port).inserted else { return false }
      }
      nodes[index] = node
    case .addEdge(let edge):
      guard !edges.contains(where: { $0.id == edge.id }), fits(edge, excluding: nil) else { return false }
      edges.append(edge)
    case .removeEdge(let id):
      guard edges.contains(where: { $0.id == id }) else { return false }
      edges.removeAll { $0.id == id }
    case .updateEdge(let edge):
      guard let index = edges.firstIndex(where: { $0.id == edge.id }), fits(edge, excluding: edge.id) else {
        return false
      }
      edges[index] = edge
    }
    return true
  }

  /// What `export()` must give: no transient nodes nor their edges, nothing selected.
  var exported: (nodes: [FlowNode], edges: [FlowEdge]) {
    let transient = Set(nodes.filter { $0.persistence == .transient }.map(\.id))
    let nodes = self.nodes.filter { !transient.contains($0.id) }.map { node in
      var node = node
      node.isSelected = false
      return node
    }
    let edges = self.edges.filter { !transient.contains($0.sourceNodeID) && !transient.contains($0.targetNodeID) }.map {
      edge in
      var edge = edge
      edge.isSelected = false
      return edge
    }
    return (nodes, edges)
  }
}

private enum RecordEdit {
  case addNode(FlowNode)
  case removeNode(String)
  case updateNode(FlowNode)
  case addEdge(FlowEdge)
  case removeEdge(String)
  case updateEdge(FlowEdge)
}

/// Random nodes and edges whose optional parts are set about half of the time.
private struct RecordGenerator {
  var random: SeededRandom

  mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
  mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
  mutating func nodeID() -> String { "n\(Int.random(in: 0..<8, using: &random))" }

  mutating func node(id: String) -> FlowNode {
    var node = FlowNode.node(id, "merge", params: ["inputs": .number(Double(Int.random(in: 1...3, using: &random)))])
    node.position = CGPoint(x: Double(Int.random(in: 0..<5, using: &random)), y: 0)
    node.parentID = chance(30) ? pick(["g1", "g2"]) : nil
    node.persistence = chance(20) ? .transient : .persistent
    node.isSelected = chance(30)
    return node
  }

  mutating func edge(id: String) -> FlowEdge {
    FlowEdge(
      id: id, sourceNodeID: nodeID(), sourceHandleID: chance(50) ? "out" : nil, targetNodeID: nodeID(),
      targetHandleID: chance(25) ? nil : "in\(Int.random(in: 0..<3, using: &random))",
      parentID: chance(20) ? pick(["g1", "g2"]) : nil,
      label: chance(20) ? pick(["a", "a long label, not inline"]) : nil,
      pathType: pick([.bezier, .straight, .smoothStep, .simpleBezier]), isSelected: chance(30))
  }

  /// An edit of the model, mostly of nodes and edges it has.
  mutating func edit(of model: RecordModel) -> RecordEdit? {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<18: return .addNode(node(id: nodeID()))
    case 18..<24: return .removeNode(nodeID())
    case 24..<38:
      guard !model.nodes.isEmpty else { return nil }
      let old = pick(model.nodes)
      var node = chance(50) ? node(id: old.id) : old
      if chance(50) { node.position.x += 1 }
      return .updateNode(node)
    case 38..<66: return .addEdge(edge(id: "e\(Int.random(in: 0..<16, using: &random))"))
    case 66..<76: return .removeEdge("e\(Int.random(in: 0..<16, using: &random))")
    default:
      guard !model.edges.isEmpty else { return nil }
      let old = pick(model.edges)
      var edge = edge(id: old.id)
      if chance(60) {  // the same ends, other attributes
        edge.sourceNodeID = old.sourceNodeID
        edge.targetNodeID = old.targetNodeID
        if chance(50) { edge.targetHandleID = old.targetHandleID }
      }
      return .updateEdge(edge)
    }
  }
}

@Suite struct FlowStoreRecordPropertyTests {
  /// Random edits, undo and redo keep `nodes`, `edges`, `snapshot`-style reads and `export()`
  /// equal to whole values kept by a plain model, and every invariant holds.
  @Test(arguments: 0..<150)
  func recordsGiveBackWhatWasStored(seed: UInt64) throws {
    var generator = RecordGenerator(random: SeededRandom(seed: seed &+ 1_000))
    let store = FlowStore.testing()
    if seed % 2 == 0 { store._compactionMinimum = 0 }
    var model = RecordModel()
    var undoStack: [RecordModel] = []
    var redoStack: [RecordModel] = []
    for step in 0..<80 {
      let roll = Int.random(in: 0..<100, using: &generator.random)
      var description = ""
      if roll < 8 {
        description = "undo"
        let done = store.undo()
        #expect(done == !undoStack.isEmpty, "seed \(seed), step \(step): undo")
        if let previous = undoStack.popLast() {
          redoStack.append(model)
          model = previous
        }
      } else if roll < 13 {
        description = "redo"
        let done = store.redo()
        #expect(done == !redoStack.isEmpty, "seed \(seed), step \(step): redo")
        if let next = redoStack.popLast() {
          undoStack.append(model)
          model = next
        }
      } else {
        guard let edit = generator.edit(of: model) else { continue }
        description = "\(edit)"
        let before = model
        let expected = model.apply(edit)
        let accepted: Bool
        do {
          switch edit {
          case .addNode(let node): try store.addNode(node)
          case .removeNode(let id): try store.removeNode(id: id)
          case .updateNode(let node): try store.updateNode(node)
          case .addEdge(let edge): try store.addEdge(edge)
          case .removeEdge(let id): try store.removeEdge(id: id)
          case .updateEdge(let edge): try store.updateEdge(edge)
          }
          accepted = true
        } catch {
          accepted = false
        }
        #expect(accepted == expected, "seed \(seed), step \(step): \(edit)")
        if accepted != expected { return }
        if expected && model != before {  // a replacement by an equal value is no change and no undo step
          undoStack.append(before)
          redoStack.removeAll()
        }
      }
      let context = Comment(rawValue: "seed \(seed), step \(step): \(description)")
      #expect(store.nodes == model.nodes, context)
      #expect(store.edges == model.edges, context)
      for edge in model.edges { #expect(store.edge(id: edge.id) == edge, context) }
      for node in model.nodes {
        let incoming = model.edges.filter { $0.targetNodeID == node.id }
          .sorted { RecordModel.port(of: $0, into: node)! < RecordModel.port(of: $1, into: node)! }
        #expect(store.incomingEdges(of: node.id) == incoming, context)
        #expect(store.outgoingEdges(of: node.id) == model.edges.filter { $0.sourceNodeID == node.id }, context)
      }
      let exported = store.export()
      #expect(exported.nodes == model.exported.nodes && exported.edges == model.exported.edges, context)
      store._checkInvariants()
    }
  }
}
