import FlowGraph
import FlowNodes
@testable import FlowRuntime
import FlowTestSupport

import Testing

/// After every edit, the incremental pass must leave the same values and failures as a
/// from-scratch evaluation of the edited graph, and must run exactly the nodes a reference
/// simulation of "dirty + changed inputs, minus cutoffs, minus upstream failures" predicts.
@Suite struct IncrementalPropertyTests {
  /// Store changes captured by `observe`, drained by the test.
  final class ChangeLog: Sendable {
    private let changes = Locked<[FlowStoreChange]>([])
    func append(_ change: FlowStoreChange) { changes.withLock { $0.append(change) } }
    func drain() -> [FlowStoreChange] {
      changes.withLock { changes in
        let drained = changes
        changes.removeAll()
        return drained
      }
    }
  }

  struct State: Equatable {
    var outputs: [String: [String: Value]] = [:]
    var failures: [String: String] = [:]
  }

  static let formulas = ["a - b", "b - a", "max(a, b) * c", "a % 3 + b", "a * b"]
  static let operators = ["add", "subtract", "multiply", "divide"]

  static func randomSpec(_ random: inout SeededRandom) -> NodeSpec {
    switch random.next() % 6 {
    case 0, 1: NodeSpec(kind: "number", params: ["value": .number(Double(random.next() % 5))])
    case 2:
      NodeSpec(kind: "expression", params: ["formula": .string(formulas[Int(random.next() % UInt64(formulas.count))])])
    default: NodeSpec(kind: operators[Int(random.next() % UInt64(operators.count))])
    }
  }

  static func inputs(of spec: NodeSpec) -> [String] {
    guard case .success(let node) = NodeKindRegistry.standard.configure(spec) else { return [] }
    return node.signature.inputs.map(\.name)
  }

  static func randomDocument(_ random: inout SeededRandom, nodeCount: Int? = nil) -> FlowDocument {
    var document = FlowDocument()
    let count = nodeCount ?? 3 + Int(random.next() % 16)
    for index in 0..<count {
      let spec = randomSpec(&random)
      document.nodes.append(FlowNode(id: "n\(index)", data: spec))
      guard index > 0 else { continue }
      for port in inputs(of: spec) where random.next() % 10 < 7 {
        let source = Int(random.next() % UInt64(index))
        guard document.nodes[source].data.kind != "group" else { continue }
        document.edges.append(
          FlowEdge(
            id: "e\(document.edges.count)", sourceNodeID: "n\(source)",
            targetNodeID: "n\(index)", targetHandleID: port))
      }
    }
    return document
  }

  /// One random edit through the store; rejected edits must change nothing.
  static func randomEdit(_ store: FlowStore, _ random: inout SeededRandom, fresh: inout Int) {
    let nodes = store.nodes
    let revision = store.revision
    do {
      switch random.next() % 8 {
      case 0, 1:
        guard var node = nodes.randomElement(using: &random) else { return }
        if node.data.kind == "number" {
          node.data.params["value"] = .number(Double(random.next() % 5))
        } else if node.data.kind == "expression" {
          node.data.params["formula"] = .string(formulas[Int(random.next() % UInt64(formulas.count))])
        } else {
          node.data.kind = operators[Int(random.next() % UInt64(operators.count))]
        }
        try store.updateNode(node)
      case 2, 3:
        guard let source = nodes.randomElement(using: &random), let target = nodes.randomElement(using: &random),
          let port = inputs(of: target.data).randomElement(using: &random)
        else { return }
        fresh += 1
        let edge = FlowEdge(id: "x\(fresh)", sourceNodeID: source.id, targetNodeID: target.id, targetHandleID: port)
        try store.batch { batch throws(GraphValidationError) in
          if let existing = batch.incomingEdges(of: target.id).first(where: { $0.targetHandleID == port }) {
            try batch.removeEdge(id: existing.id)
          }
          try batch.addEdge(edge)
        }
      case 4:
        guard let edge = store.edges.randomElement(using: &random) else { return }
        try store.removeEdge(id: edge.id)
      case 5:
        guard let node = nodes.randomElement(using: &random), nodes.count > 2 else { return }
        try store.removeNode(id: node.id)
      default:
        fresh += 1
        let id = "new\(fresh)"
        let spec = randomSpec(&random)
        let source = nodes.randomElement(using: &random)
        let port = inputs(of: spec).first
        try store.batch { batch throws(GraphValidationError) in
          try batch.addNode(FlowNode(id: id, data: spec))
          if let source, let port {
            try batch.addEdge(FlowEdge(id: "b\(id)", sourceNodeID: source.id, targetNodeID: id, targetHandleID: port))
          }
          if let target = nodes.randomElement(using: &random), let targetPort = inputs(of: target.data).first,
            batch.incomingEdges(of: target.id).isEmpty || random.next() % 2 == 0
          {
            try batch.addEdge(
              FlowEdge(id: "c\(id)", sourceNodeID: id, targetNodeID: target.id, targetHandleID: targetPort))
          }
        }
      }
    } catch {
      #expect(store.revision == revision, "a rejected edit changed the store: \(error)")
    }
  }

  static func state(of evaluator: GraphEvaluator) -> State {
    var state = State()
    for id in evaluator.presentNodeIDs {
      state.outputs[id] = evaluator.outputs(of: id)
      if let failure = evaluator.failure(of: id) { state.failures[id] = failure }
    }
    return state
  }

  /// The values as a fresh evaluator computes them for the store's graph.
  static func fromScratch(_ store: FlowStore) throws -> GraphEvaluator {
    var evaluator = try GraphEvaluator(
      validating: FlowDocument(nodes: store.nodes, edges: store.edges), registry: .standard)
    evaluator.evaluate()
    return evaluator
  }

  /// The nodes an exact incremental pass runs: visited if dirty or some input changed; run
  /// unless an input failed; changed if its outputs or failure differ from before the pass.
  static func expectedRun(store: FlowStore, order: [String], dirty: Set<String>, before: State, after: State) -> Set<
    String
  > {
    var changed = Set<String>()
    var ran = Set<String>()
    for id in order {
      let predecessors = store.incomingEdges(of: id).map(\.sourceNodeID)
      guard dirty.contains(id) || predecessors.contains(where: changed.contains) else { continue }
      let failedInput = predecessors.contains { after.failures[$0] != nil }
      if !failedInput { ran.insert(id) }
      let outputsChanged =
        !failedInput && after.failures[id] == nil && !identical(before.outputs[id], after.outputs[id])
      if outputsChanged || before.failures[id] != after.failures[id] { changed.insert(id) }
    }
    return ran
  }

  /// Equality as the engine's cutoff sees it (`Value.isIdentical`: -0 differs from 0).
  static func identical(_ lhs: [String: Value]?, _ rhs: [String: Value]?) -> Bool {
    guard let lhs, let rhs, lhs.count == rhs.count else { return lhs == nil && rhs == nil }
    return lhs.allSatisfy { port, value in rhs[port].map(value.isIdentical(to:)) ?? false }
  }

  @Test(arguments: 0..<300)
  func incrementalPassesMatchAFromScratchEvaluation(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let store = try FlowStore(catalog: NodeKindRegistry.standard, document: Self.randomDocument(&random))
    let log = ChangeLog()
    let (snapshot, _, observation) = store.observe { log.append($0) }
    defer { observation.cancel() }
    var evaluator = try GraphEvaluator(validating: snapshot, registry: .standard)
    evaluator.evaluate()
    #expect(Self.state(of: evaluator) == Self.state(of: try Self.fromScratch(store)))
    var fresh = 0
    for _ in 0..<25 {
      Self.randomEdit(store, &random, fresh: &fresh)
      let drained = log.drain()
      // As the engine applies them: with what the store resolved (configurations, removed edges).
      for change in drained { evaluator.apply(change) }
      try Self.expectPassMatchesFromScratch(&evaluator, store: store, label: "seed \(seed)")
    }
  }

  /// Runs a pass and checks it against a from-scratch evaluation of the store's graph: the same
  /// values and failures, no node twice, exactly the nodes `expectedRun` predicts.
  static func expectPassMatchesFromScratch(_ evaluator: inout GraphEvaluator, store: FlowStore, label: String) throws {
    evaluator._checkInvariants()
    let dirty = Set(evaluator.pendingDirty.map { evaluator.graph.ids[Int($0)] })
    let before = state(of: evaluator)
    let report = evaluator.evaluate()
    evaluator._checkInvariants()
    let scratch = try fromScratch(store)
    let after = state(of: scratch)
    var engineState = state(of: evaluator)
    // A failed node keeps its previous outputs; the fresh evaluator has placeholders there.
    for id in after.failures.keys { engineState.outputs[id] = after.outputs[id] }
    #expect(engineState == after, "\(label): incremental values differ from a from-scratch evaluation")
    #expect(report.ran.count == Set(report.ran).count, "\(label): a node ran twice in one pass")
    let order = scratch.graph.order.orderedNodes.map { scratch.graph.ids[Int($0)] }
    let expected = expectedRun(store: store, order: order, dirty: dirty, before: before, after: after)
    #expect(
      Set(report.ran) == expected,
      "\(label): ran \(report.ran.count) nodes \(report.ran.sorted().prefix(20)), expected \(expected.count)")
  }

  @Test(arguments: 0..<40)
  func theEngineConvergesToAFromScratchEvaluation(seed: UInt64) async throws {
    var random = SeededRandom(seed: seed &+ 10_000)
    let engine = try FlowEngine(document: Self.randomDocument(&random), registry: .standard)
    var fresh = 0
    for _ in 0..<15 {
      for _ in 0..<(1 + random.next() % 3) { Self.randomEdit(engine.store, &random, fresh: &fresh) }
      let report = try #require(await engine.evaluate())
      #expect(report.revision == engine.store.revision)
      let scratch = try Self.fromScratch(engine.store)
      for id in scratch.presentNodeIDs {
        #expect(await engine.failure(of: id) == scratch.failure(of: id), "seed \(seed): failure of \(id)")
        if scratch.failure(of: id) == nil {
          #expect(await engine.outputs(of: id) == scratch.outputs(of: id), "seed \(seed): outputs of \(id)")
        }
      }
    }
    engine.shutDown()
  }
}
