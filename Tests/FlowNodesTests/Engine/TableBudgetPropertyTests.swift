import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `EngineOptions.tableMemoryBudget` against an unbounded evaluator: random table pipelines
/// (two `tableInput` sources, filters, derives, groupBys, sorts, a join), random edits, every
/// pass compared: the same states for every node, and the same ran set — except that a
/// dropped node that must run counts as changed (its old table is gone), so nodes below it may
/// run where the unbounded evaluator cut off; recomputed nodes were dropped and needed.
@Suite struct TableBudgetPropertyTests {
  struct Pipeline {
    var document: FlowDocument
    var filters: [String]
    var derived: [String]
    /// The table nodes in the order they were made (a node may read only earlier ones).
    var tables: [String]
    /// Each node's input edges as (source, target): rewiring edits change the single-input ones.
    var inputs: [String: [String]]
    var singleInput: [String]

    var successors: [String: Set<String>] {
      var successors: [String: Set<String>] = [:]
      for (target, sources) in inputs { for source in sources { successors[source, default: []].insert(target) } }
      return successors
    }
  }

  static func randomTable(_ random: inout SeededRandom) throws -> Table {
    let rows = Int.random(in: 0..<16, using: &random)
    func maybe<T>(_ make: () -> T) -> T? { Int.random(in: 0..<8, using: &random) == 0 ? nil : make() }
    var k: [Int64?] = [], x: [Double?] = [], s: [String?] = []
    for _ in 0..<rows {
      k.append(maybe { Int64.random(in: 0..<4, using: &random) })
      x.append(maybe { Double(Int.random(in: -12..<12, using: &random)) / 4 })
      s.append(maybe { ["a", "b", "é", ""].randomElement(using: &random)! })
    }
    return try Table([("k", .integers(k)), ("x", .numbers(x)), ("s", .strings(s))])
  }

  static func randomPipeline(_ random: inout SeededRandom) -> Pipeline {
    var nodes: [FlowNode] = [.node("s0", "tableInput"), .node("s1", "tableInput")]
    var edges: [FlowEdge] = []
    var tables = ["s0", "s1"], filters: [String] = [], derived: [String] = []
    var inputs: [String: [String]] = [:], singleInput: [String] = []
    var joined = false
    for index in 0..<Int.random(in: 3...9, using: &random) {
      let id = "n\(index)"
      let input = tables.randomElement(using: &random)!
      switch Int.random(in: 0..<5, using: &random) {
      case 0:
        nodes.append(.node(id, "filter", params: ["where": .string("x > \(Int.random(in: -3...3, using: &random))")]))
        filters.append(id)
      case 1: nodes.append(.node(id, "derive", params: ["columns": ["d\(index)": "x * 2"]]))
      case 2: nodes.append(.node(id, "groupBy", params: ["by": ["k"], "aggregate": ["x": "sum(x)", "s": "first(s)"]]))
      case 3: nodes.append(.node(id, "sort", params: ["by": ["x", "k"]]))
      default:
        if !joined, let other = tables.filter({ $0 != input }).randomElement(using: &random) {
          joined = true
          nodes.append(.node(id, "join", params: ["on": ["k"]]))
          edges.append(.edge("e\(index)l", input, "\(id).left"))
          edges.append(.edge("e\(index)r", other, "\(id).right"))
          inputs[id] = [input, other]
          tables.append(id)
          derived.append(id)
          continue
        }
        nodes.append(.node(id, "sort", params: ["by": ["-x"]]))
      }
      edges.append(.edge("e\(index)", input, id))
      inputs[id] = [input]
      singleInput.append(id)
      tables.append(id)
      derived.append(id)
    }
    return Pipeline(
      document: FlowDocument(nodes: nodes, edges: edges), filters: filters, derived: derived, tables: tables,
      inputs: inputs, singleInput: singleInput)
  }

  /// Nodes reachable from `starts` (themselves included).
  static func downstream(of starts: Set<String>, _ successors: [String: Set<String>]) -> Set<String> {
    var seen = starts, stack = Array(starts)
    while let node = stack.popLast() {
      for next in successors[node] ?? [] where seen.insert(next).inserted { stack.append(next) }
    }
    return seen
  }

  static var registry: NodeKindRegistry {
    var registry = NodeKindRegistry.standard
    registry.register(TableInputKind())
    return registry
  }

  @Test(arguments: 0..<80)
  func budgetedEvaluatorAgreesWithUnbounded(seed: UInt64) async throws {
    var random = SeededRandom(seed: seed)
    var pipeline = Self.randomPipeline(&random)
    let budget = [0, 64, 256, 512, 1_024][Int(seed % 5)]
    let concurrent = seed % 2 == 1
    var options = EngineOptions()
    options.tableMemoryBudget = budget
    var unbounded = try GraphEvaluator(validating: pipeline.document, registry: Self.registry)
    var bounded = try GraphEvaluator(validating: pipeline.document, registry: Self.registry, options: options)
    for source in ["s0", "s1"] {
      let table = Value.table(try Self.randomTable(&random))
      try unbounded.setUnconnectedInput(unbounded.input(source, "table")!, to: table)
      try bounded.setUnconnectedInput(bounded.input(source, "table")!, to: table)
    }
    var observed: Set<String> = []
    var evictions = 0
    for step in 0..<10 {
      if step > 0 {
        for _ in 0..<Int.random(in: 0...2, using: &random) {
          switch Int.random(in: 0..<5, using: &random) {
          case 0:
            let source = ["s0", "s1"].randomElement(using: &random)!
            let table = Value.table(try Self.randomTable(&random))
            try unbounded.setUnconnectedInput(unbounded.input(source, "table")!, to: table)
            try bounded.setUnconnectedInput(bounded.input(source, "table")!, to: table)
          case 1 where !pipeline.filters.isEmpty:
            let id = pipeline.filters.randomElement(using: &random)!
            let node = FlowNode.node(
              id, "filter", params: ["where": .string("x > \(Int.random(in: -3...3, using: &random))")])
            unbounded.replaceNode(node)
            bounded.replaceNode(node)
          case 2:
            let id = pipeline.derived.randomElement(using: &random)!
            if observed.remove(id) != nil {
              unbounded.unobserve(id)
              bounded.unobserve(id)
            } else {
              observed.insert(id)
              unbounded.observe(id)
              bounded.observe(id)
            }
          case 3 where !pipeline.singleInput.isEmpty:
            // Rewire a single-input node to another earlier table (a consumer of a dropped table).
            let target = pipeline.singleInput.randomElement(using: &random)!
            let earlier = pipeline.tables.prefix { $0 != target }
            let source = earlier.randomElement(using: &random)!
            let edge = FlowEdge.edge("w\(step)", source, target)
            unbounded.addEdge(edge)
            bounded.addEdge(edge)
            pipeline.inputs[target] = [source]
          default: break
          }
        }
      }
      let droppedBefore = bounded.tableMemory!.dropped
      let (u, b) =
        concurrent
        ? (await unbounded.evaluateConcurrently(), await bounded.evaluateConcurrently())
        : (unbounded.evaluate(), bounded.evaluate())
      let context = "seed \(seed) step \(step)"
      let ranU = Set(u.ran), ranB = Set(b.ran)
      #expect(ranU.isSubset(of: ranB), "\(context): \(ranU) ⊄ \(ranB)")
      let droppedRan = ranB.intersection(droppedBefore)
      if droppedRan.isEmpty {
        #expect(ranB == ranU, "\(context)")
      } else {
        #expect(ranB.subtracting(ranU).isSubset(of: Self.downstream(of: droppedRan, pipeline.successors)), "\(context)")
      }
      let stats = bounded.tableMemory!
      #expect(stats.heldBytes <= budget, "\(context)")
      evictions += stats.lastEvicted.count
      let recomputed = Set(stats.lastRecomputed)
      #expect(recomputed.isSubset(of: droppedBefore), "\(context)")
      #expect(recomputed.count == stats.lastRecomputed.count, "\(context): recomputed twice")
      let needers = ranB.union(b.failed.keys).union(recomputed)
      for node in recomputed {
        #expect(
          !(pipeline.successors[node] ?? []).isDisjoint(with: needers) || observed.contains(node),
          "\(context): \(node) recomputed though nothing needed it")
      }
      #expect(ranB.isDisjoint(with: recomputed), "\(context): a node both ran and was recomputed")
      for id in unbounded.presentNodeIDs {
        #expect(unbounded.state(of: id) == bounded.state(of: id), "\(context): node \(id)")
      }
      #expect(bounded.tableMemory!.dropped.isDisjoint(with: observed), "\(context): an observed table was dropped")
      bounded._checkInvariants()
    }
    if budget == 0 && pipeline.derived.count > 1 {
      #expect(evictions > 0, "seed \(seed): a zero budget dropped nothing")
    }
  }
}
