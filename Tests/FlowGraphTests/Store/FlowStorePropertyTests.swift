import Testing

import FlowGraph
import FlowTestSupport

/// A plain model of the store: arrays in insertion order, brute-force reachability for cycles,
/// whole copies for undo. Every node is a `merge` with inputs `in0`…`in2`.
private struct Model: Equatable {
  struct Edge: Equatable {
    var id: String
    var source: String
    var target: String
    var port: Int
  }

  var nodes: [String] = []
  var edges: [Edge] = []

  /// Whether a path (possibly empty) leads from `source` to `target`.
  func reaches(_ source: String, _ target: String) -> Bool {
    var seen: Set = [source]
    var stack = [source]
    while let node = stack.popLast() {
      if node == target { return true }
      for edge in edges where edge.source == node && seen.insert(edge.target).inserted { stack.append(edge.target) }
    }
    return false
  }

  mutating func apply(_ operation: Operation) -> Bool {
    switch operation {
    case .addNode(let id):
      guard !nodes.contains(id) else { return false }
      nodes.append(id)
    case .removeNode(let id):
      guard nodes.contains(id) else { return false }
      nodes.removeAll { $0 == id }
      edges.removeAll { $0.source == id || $0.target == id }
    case .addEdge(let edge):
      guard !edges.contains(where: { $0.id == edge.id }), nodes.contains(edge.source), nodes.contains(edge.target),
        !edges.contains(where: { $0.target == edge.target && $0.port == edge.port }),
        !reaches(edge.target, edge.source)
      else { return false }
      edges.append(edge)
    case .removeEdge(let id):
      guard edges.contains(where: { $0.id == id }) else { return false }
      edges.removeAll { $0.id == id }
    case .batch(let operations):
      var copy = self
      for operation in operations where !copy.apply(operation) { return false }
      self = copy
    case .undo, .redo:
      preconditionFailure("history is the test's job")
    }
    return true
  }
}

private indirect enum Operation: CustomStringConvertible {
  case addNode(String)
  case removeNode(String)
  case addEdge(Model.Edge)
  case removeEdge(String)
  case batch([Operation])
  case undo
  case redo

  static func random(using random: inout SeededRandom, inBatch: Bool = false) -> Operation {
    func node() -> String { "n\(Int.random(in: 0..<10, using: &random))" }
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<20: return .addNode(node())
    case 20..<28: return .removeNode(node())
    case 28..<70:
      return .addEdge(
        Model.Edge(
          id: "e\(Int.random(in: 0..<30, using: &random))", source: node(), target: node(),
          port: Int.random(in: 0..<3, using: &random)))
    case 70..<82: return .removeEdge("e\(Int.random(in: 0..<30, using: &random))")
    case 82..<92 where !inBatch:
      return .batch((0..<Int.random(in: 1...5, using: &random)).map { _ in .random(using: &random, inBatch: true) })
    case 92..<97 where !inBatch: return .undo
    case 97..<100 where !inBatch: return .redo
    default: return .addNode(node())
    }
  }

  var description: String {
    switch self {
    case .addNode(let id): "addNode(\(id))"
    case .removeNode(let id): "removeNode(\(id))"
    case .addEdge(let edge): "addEdge(\(edge.id): \(edge.source) → \(edge.target).in\(edge.port))"
    case .removeEdge(let id): "removeEdge(\(id))"
    case .batch(let operations): "batch(\(operations.map(\.description).joined(separator: ", ")))"
    case .undo: "undo"
    case .redo: "redo"
    }
  }
}

extension FlowStore.Batch {
  fileprivate mutating func perform(_ operation: Operation) throws(GraphValidationError) {
    switch operation {
    case .addNode(let id): try addNode(mergeNode(id))
    case .removeNode(let id): try removeNode(id: id)
    case .addEdge(let edge): try addEdge(flowEdge(edge))
    case .removeEdge(let id): try removeEdge(id: id)
    case .batch, .undo, .redo: preconditionFailure("not in a batch")
    }
  }
}

private func mergeNode(_ id: String) -> FlowNode { .node(id, "merge", params: ["inputs": 3]) }

private func flowEdge(_ edge: Model.Edge) -> FlowEdge {
  FlowEdge(
    id: edge.id, sourceNodeID: edge.source, sourceHandleID: "out", targetNodeID: edge.target,
    targetHandleID: "in\(edge.port)")
}

/// Applies `operation` to the store; whether it was accepted.
private func perform(_ operation: Operation, on store: FlowStore) -> Bool {
  do {
    switch operation {
    case .addNode(let id): try store.addNode(mergeNode(id))
    case .removeNode(let id): try store.removeNode(id: id)
    case .addEdge(let edge): try store.addEdge(flowEdge(edge))
    case .removeEdge(let id): try store.removeEdge(id: id)
    case .batch(let operations):
      try store.batch { batch throws(GraphValidationError) in
        for operation in operations { try batch.perform(operation) }
      }
    case .undo: return store.undo()
    case .redo: return store.redo()
    }
    return true
  } catch {
    return false
  }
}

@Suite struct FlowStorePropertyTests {
  @Test(arguments: 0..<200)
  func randomEditsMatchAPlainModel(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let store = FlowStore.testing()
    if seed % 2 == 0 { store._compactionMinimum = 0 }  // compact as soon as tombstones outnumber live slots
    var model = Model()
    var undoStack: [Model] = []
    var redoStack: [Model] = []
    var revision = 0
    for step in 0..<60 {
      let operation = Operation.random(using: &random)
      let expected: Bool
      switch operation {
      case .undo:
        expected = !undoStack.isEmpty
        if let previous = undoStack.popLast() {
          redoStack.append(model)
          model = previous
        }
      case .redo:
        expected = !redoStack.isEmpty
        if let next = redoStack.popLast() {
          undoStack.append(model)
          model = next
        }
      default:
        let before = model
        expected = model.apply(operation)
        if expected {
          undoStack.append(before)
          redoStack.removeAll()
        }
      }
      if expected { revision += 1 }
      let accepted = perform(operation, on: store)
      let context = Comment(rawValue: "seed \(seed), step \(step): \(operation)")
      #expect(accepted == expected, context)
      #expect(store.revision == revision, context)
      #expect(store.nodes.map(\.id) == model.nodes, context)
      #expect(store.edges == model.edges.map(flowEdge), context)
      for node in model.nodes {
        let incoming = model.edges.filter { $0.target == node }.sorted { $0.port < $1.port }.map(\.id)
        let outgoing = model.edges.filter { $0.source == node }.map(\.id)
        #expect(store.incomingEdges(of: node).map(\.id) == incoming, context)
        #expect(store.outgoingEdges(of: node).map(\.id) == outgoing, context)
      }
      #expect(store.canUndo == !undoStack.isEmpty && store.canRedo == !redoStack.isEmpty, context)
      store._checkInvariants()
      if accepted != expected { return }
    }
  }

  @Test func aLargeRandomDAGConnectsAndDisconnectsManyEdges() throws {
    let nodeCount = 100_000
    let document = StoreFixtures.randomDAG(nodeCount: nodeCount, edgeCount: 150_000, inputs: 4, seed: 7)
    let store = try FlowStore(catalog: TestCatalog(), document: document)
    var random = SeededRandom(seed: 11)
    func index(_ id: String) -> Int { Int(id.dropFirst())! }
    func port(_ handle: String?) -> Int { Int(handle!.dropFirst(2))! }
    var free = [[Int]](repeating: [0, 1, 2, 3], count: nodeCount)
    for edge in document.edges { free[index(edge.targetNodeID)].removeAll { $0 == port(edge.targetHandleID) } }
    var added: [FlowEdge] = []
    var cycles = 0
    var connected = 0
    for attempt in 0..<3_000 {
      var source = Int.random(in: 0..<nodeCount, using: &random)
      var target = Int.random(in: 0..<nodeCount, using: &random)
      if attempt % 3 == 0, let back = store.outgoingEdges(of: "n\(source)").first {
        // Against an existing edge (or the start of a path): always a cycle.
        (source, target) = (index(back.targetNodeID), source)
      }
      guard let input = free[target].first else { continue }
      let edge = FlowEdge(
        id: "x\(attempt)", sourceNodeID: "n\(source)", sourceHandleID: "out",
        targetNodeID: "n\(target)", targetHandleID: "in\(input)")
      do throws(GraphValidationError) {
        try store.addEdge(edge)
        free[target].removeFirst()
        added.append(edge)
        connected += 1
      } catch {
        cycles += 1
        let issue = try #require(error.issues.first)
        #expect(issue.code == .cycle)
        // The reported cycle is real: source → target → … → source along existing edges.
        let ids = issue.nodeIDs
        #expect(ids.first == "n\(source)")
        if ids.count > 1 { #expect(ids[1] == "n\(target)") }
        for (from, to) in zip(ids.dropFirst(), ids.dropFirst(2) + [ids[0]]) {
          #expect(store.outgoingEdges(of: from).contains { $0.targetNodeID == to }, "\(from) → \(to)")
        }
      }
      if attempt % 500 == 499 {
        // Disconnect half of what was added, and one original edge, in a batch.
        added.shuffle(using: &random)
        var removed = Array(added.suffix(added.count / 2))
        added.removeLast(removed.count)
        removed.append(try #require(store.edge(id: "e\(attempt)")))
        try store.batch { batch throws(GraphValidationError) in
          for edge in removed { try batch.removeEdge(id: edge.id) }
        }
        for edge in removed { free[index(edge.targetNodeID)].append(port(edge.targetHandleID)) }
      }
    }
    #expect(cycles > 500)
    #expect(connected > 1_000)
    for edge in added { try store.removeEdge(id: edge.id) }
    #expect(store.edges.count == document.edges.count - 6)
    #expect(
      store.edges.map(\.id)
        == document.edges.map(\.id).filter { !["e499", "e999", "e1499", "e1999", "e2499", "e2999"].contains($0) })
    store._checkInvariants()
  }
}
