import Testing

import FlowGraph
import FlowTestSupport

/// A plain model of a guarded store: the graph as arrays in insertion order, brute-force
/// reachability for cycles, whole copies for undo, a bounded undo stack, and the operation
/// history as a list of outcomes. Every node is a `merge` with inputs `in0`…`in2`.
private struct GraphModel: Equatable {
  struct Edge: Equatable {
    var id: String
    var source: String
    var target: String
    var port: Int
  }

  var nodes: [String] = []
  var edges: [Edge] = []

  func reaches(_ source: String, _ target: String) -> Bool {
    var seen: Set = [source]
    var stack = [source]
    while let node = stack.popLast() {
      if node == target { return true }
      for edge in edges where edge.source == node && seen.insert(edge.target).inserted { stack.append(edge.target) }
    }
    return false
  }

  /// Applies an add or remove; whether it is valid.
  mutating func apply(_ step: Step) -> Bool {
    switch step {
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
    case .batch(let steps):
      var copy = self
      for step in steps where !copy.apply(step) { return false }
      self = copy
    case .undo, .redo:
      preconditionFailure("history is the model store's job")
    }
    return true
  }
}

private indirect enum Step: CustomStringConvertible {
  case addNode(String)
  case removeNode(String)
  case addEdge(GraphModel.Edge)
  case removeEdge(String)
  case batch([Step])
  case undo
  case redo

  static func random(using random: inout SeededRandom, inBatch: Bool = false) -> Step {
    func node() -> String { "n\(Int.random(in: 0..<8, using: &random))" }
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<20: return .addNode(node())
    case 20..<27: return .removeNode(node())
    case 27..<60:
      return .addEdge(
        GraphModel.Edge(
          id: "e\(Int.random(in: 0..<20, using: &random))", source: node(), target: node(),
          port: Int.random(in: 0..<3, using: &random)))
    case 60..<70: return .removeEdge("e\(Int.random(in: 0..<20, using: &random))")
    case 70..<80 where !inBatch:
      return .batch((0..<Int.random(in: 1...4, using: &random)).map { _ in .random(using: &random, inBatch: true) })
    case 80..<92 where !inBatch: return .undo
    case 92..<100 where !inBatch: return .redo
    default: return .addNode(node())
    }
  }

  /// The request `FlowStore.apply(_:)` / `perform(_:)` takes.
  var operation: StoreOperation {
    switch self {
    case .addNode(let id): .addNode(mergeNode(id))
    case .removeNode(let id): .removeNode(id: id)
    case .addEdge(let edge): .addEdge(flowEdge(edge))
    case .removeEdge(let id): .removeEdge(id: id)
    case .batch(let steps): .batch(steps.map(\.operation))
    case .undo: .undo
    case .redo: .redo
    }
  }

  var description: String { operation.description }
}

private func mergeNode(_ id: String) -> FlowNode { .node(id, "merge", params: ["inputs": 3]) }

private func flowEdge(_ edge: GraphModel.Edge) -> FlowEdge {
  FlowEdge(
    id: edge.id, sourceNodeID: edge.source, sourceHandleID: "out", targetNodeID: edge.target,
    targetHandleID: "in\(edge.port)")
}

/// What a step's outcome should look like in the store's history.
private enum Expected: Equatable {
  case applied
  case blocked
  case rejected
  /// Undo or redo with nothing to do: no record.
  case nothing
}

/// The reference: a graph model plus undo and redo stacks of whole copies, the undo stack
/// bounded like the store's.
private struct ModelStore {
  var graph = GraphModel()
  var undoStack: [GraphModel] = []
  var redoStack: [GraphModel] = []
  let undoCapacity: Int
  var revision = 0

  /// Performs `step` when the guard answers `vetoed`, returning the expected outcome.
  mutating func perform(_ step: Step, vetoed: Bool) -> Expected {
    switch step {
    case .undo, .redo:
      let isUndo = if case .undo = step { true } else { false }
      guard let target = isUndo ? undoStack.last : redoStack.last else { return .nothing }
      if vetoed { return .blocked }
      if isUndo {
        undoStack.removeLast()
        redoStack.append(graph)
      } else {
        redoStack.removeLast()
        pushUndo(graph)
      }
      graph = target
    case .batch:
      // A batch's body runs before the guards see it: an invalid batch is rejected, vetoed or not.
      var copy = graph
      guard copy.apply(step) else { return .rejected }
      if vetoed { return .blocked }
      pushUndo(graph)
      redoStack.removeAll()
      graph = copy
    default:
      // A single operation meets the guards first.
      if vetoed { return .blocked }
      var copy = graph
      guard copy.apply(step) else { return .rejected }
      pushUndo(graph)
      redoStack.removeAll()
      graph = copy
    }
    revision += 1
    return .applied
  }

  mutating func pushUndo(_ model: GraphModel) {
    undoStack.append(model)
    if undoStack.count > undoCapacity { undoStack.removeFirst() }
  }
}

@Suite struct FlowStoreGuardPropertyTests {
  /// Random edits, batches, undos and redos, a fifth of them vetoed by a synchronous guard, half
  /// through `apply(_:)` and half through the classic methods, against the model: the graph,
  /// the revision, canUndo/canRedo and every history record agree after each step. A small
  /// undo capacity makes the ring wrap; a small history capacity makes the history wrap.
  @Test(arguments: 0..<150)
  func guardedEditsMatchAModelStore(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let store = FlowStore.testing()
    let undoCapacity = Int.random(in: 1...6, using: &random)
    store.undoCapacity = undoCapacity
    store.operationHistoryCapacity = 8
    if seed % 2 == 0 { store._compactionMinimum = 0 }
    let veto = LockedValue(false)
    let seen = LockedValue<[StoreOperation]>([])
    store.addGuard(
      StoreGuard("veto") { operation in
        seen.withLock { $0.append(operation) }
        return veto.value ? .veto("vetoed by the test") : .allow
      })
    var model = ModelStore(undoCapacity: undoCapacity)
    var sequence = 0
    for stepIndex in 0..<80 {
      let step = Step.random(using: &random)
      let vetoed = Int.random(in: 0..<5, using: &random) == 0
      let useApply = Bool.random(using: &random)
      veto.withLock { $0 = vetoed }
      seen.withLock { $0 = [] }
      let before = model.graph
      let expected = model.perform(step, vetoed: vetoed)
      let context = Comment(rawValue: "seed \(seed), step \(stepIndex): \(step)\(vetoed ? " (vetoed)" : "")")

      let accepted: Bool
      var thrown: GraphValidationError?
      if useApply {
        do { accepted = try store.apply(step.operation) } catch {
          thrown = error
          accepted = false
        }
      } else {
        do { accepted = try classic(step, on: store) } catch {
          thrown = error
          accepted = false
        }
      }

      #expect(accepted == (expected == .applied), context)
      #expect(store.revision == model.revision, context)
      #expect(store.nodes.map(\.id) == model.graph.nodes, context)
      #expect(store.edges == model.graph.edges.map(flowEdge), context)
      #expect(store.canUndo == !model.undoStack.isEmpty && store.canRedo == !model.redoStack.isEmpty, context)
      store._checkInvariants()

      let last = store.operationHistory.last
      switch expected {
      case .nothing:
        #expect(last?.sequence ?? -1 == sequence - 1, context)
        #expect(thrown == nil, context)
      case .applied:
        #expect(last?.outcome == .applied && last?.revision == model.revision, context)
        #expect(seen.value.count == 1, context)
      case .blocked:
        #expect(last?.outcome == .blocked(guard: "veto", reason: "vetoed by the test"), context)
        #expect(seen.value.count == 1, context)
        let isUndoOrRedo =
          switch step {
          case .undo, .redo: true;
          default: false
          }
        if useApply || !isUndoOrRedo {
          #expect(thrown?.issues.map(\.code) == [.vetoed], context)
          #expect(thrown?.description.contains("guard 'veto' blocked") == true, context)
        }
      case .rejected:
        if case .rejected = last?.outcome {
        } else {
          Issue.record("expected a rejection record, got \(String(describing: last)); \(context)")
        }
        #expect(thrown != nil && thrown?.issues.map(\.code) != [.vetoed], context)
      }
      if expected != .nothing {
        #expect(last?.sequence == sequence, context)
        #expect(last?.operation.kind == step.operation.kind, context)
        sequence += 1
      }
      // The guard sees what the operation touches: a single operation its request, a batch,
      // undo or redo the ids of what it changed.
      if let operation = seen.value.first {
        switch step {
        case .batch, .undo, .redo:
          if expected == .applied {
            let nodesBefore = Set(before.nodes), nodesAfter = Set(model.graph.nodes)
            let edgesBefore = Set(before.edges.map(\.id)), edgesAfter = Set(model.graph.edges.map(\.id))
            #expect(Set(operation.nodeIDs).isSuperset(of: nodesBefore.symmetricDifference(nodesAfter)), context)
            #expect(Set(operation.edgeIDs).isSuperset(of: edgesBefore.symmetricDifference(edgesAfter)), context)
            #expect(operation.nodes.map(\.id) == operation.nodeIDs.filter(nodesAfter.contains), context)
            #expect(operation.edges.map(\.id) == operation.edgeIDs.filter(edgesAfter.contains), context)
            #expect(last?.operation == operation, context)
          }
        default:
          #expect(operation == step.operation, context)
        }
      }
      #expect(store.operationHistory.count == min(sequence, 8), context)
      if accepted != (expected == .applied) { return }
    }
  }
}

/// Performs `step` through the classic methods (`addNode(_:)`, `batch(_:)`, `undo()` …).
private func classic(_ step: Step, on store: FlowStore) throws(GraphValidationError) -> Bool {
  switch step {
  case .addNode(let id): try store.addNode(mergeNode(id))
  case .removeNode(let id): try store.removeNode(id: id)
  case .addEdge(let edge): try store.addEdge(flowEdge(edge))
  case .removeEdge(let id): try store.removeEdge(id: id)
  case .batch(let steps):
    try store.batch { batch throws(GraphValidationError) in
      for step in steps { try batch.apply(step.operation) }
    }
  case .undo: return store.undo()
  case .redo: return store.redo()
  }
  return true
}
