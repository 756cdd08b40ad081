import FlowGraph
import FlowNodes
@testable import FlowRuntime
import FlowTestSupport
import Testing

/// Demand-driven passes against full ones, over random graphs, observer sets and edits: the
/// necessary set equals the ancestors of the observed nodes (kept incrementally by reference
/// counts), every necessary node holds the from-scratch value, and the nodes that ran are
/// exactly the full pass's (affected minus cutoffs) restricted to the necessary ones.
@Suite struct DemandPropertyTests {
  typealias Property = IncrementalPropertyTests

  /// The observed nodes and all their ancestors, by a plain walk of the store's edges.
  static func necessary(_ store: FlowStore, observed: [String: Int]) -> Set<String> {
    var result = Set<String>()
    var stack = observed.keys.filter { store.node(id: $0) != nil }
    while let id = stack.popLast() {
      guard result.insert(id).inserted else { continue }
      stack += store.incomingEdges(of: id).map(\.sourceNodeID)
    }
    return result
  }

  @Test(arguments: 0..<200)
  func demandDrivenPassesComputeExactlyTheNecessaryAffectedNodes(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &+ 77_000)
    let store = try FlowStore(catalog: NodeKindRegistry.standard, document: Property.randomDocument(&random))
    let log = Property.ChangeLog()
    let (snapshot, _, observation) = store.observe { log.append($0) }
    defer { observation.cancel() }
    var full = try GraphEvaluator(validating: snapshot, registry: .standard)
    var demand = try GraphEvaluator(
      validating: snapshot, registry: .standard, options: EngineOptions(demandDriven: true))
    var observed: [String: Int] = [:]
    for node in snapshot.nodes where random.next() % 4 == 0 {
      observed[node.id, default: 0] += 1
      demand.observe(node.id)
    }
    full.evaluate()
    demand.evaluate()
    var fresh = 0
    var previousNecessary = Self.necessary(store, observed: observed)
    for step in 0..<25 {
      var observersChanged = false
      if random.next() % 3 == 0, let node = store.nodes.randomElement(using: &random) {
        observersChanged = true
        if let count = observed[node.id], random.next() % 2 == 0 {
          observed[node.id] = count == 1 ? nil : count - 1
          demand.unobserve(node.id)
        } else {
          observed[node.id, default: 0] += 1
          demand.observe(node.id)
        }
      } else {
        Property.randomEdit(store, &random, fresh: &fresh)
      }
      for change in log.drain() {
        full.apply(change)
        demand.apply(change)
      }
      demand._checkInvariants()
      let necessary = Self.necessary(store, observed: observed)
      for node in store.nodes {
        #expect(
          demand.isNecessary(node.id) == necessary.contains(node.id),
          "seed \(seed) step \(step): necessity of \(node.id)")
      }
      let fullReport = full.evaluate()
      let demandReport = demand.evaluate()
      demand._checkInvariants()
      let scratch = try Property.fromScratch(store)
      for id in necessary {
        #expect(demand.failure(of: id) == scratch.failure(of: id), "seed \(seed) step \(step): failure of \(id)")
        if scratch.failure(of: id) == nil {
          #expect(demand.outputs(of: id) == scratch.outputs(of: id), "seed \(seed) step \(step): outputs of \(id)")
        }
      }
      let ran = Set(demandReport.ran)
      #expect(
        ran.isSubset(of: necessary), "seed \(seed) step \(step): ran unnecessary \(ran.subtracting(necessary).sorted())"
      )
      if !observersChanged && necessary == previousNecessary {
        let expected = Set(fullReport.ran).intersection(necessary)
        #expect(ran == expected, "seed \(seed) step \(step): ran \(ran.sorted()), expected \(expected.sorted())")
      }
      previousNecessary = necessary
    }
  }

  @Test func observingANodeComputesOnlyItsAncestors() throws {
    var graphs = Graphs()
    graphs.number("x", 1)
    graphs.number("y", 2)
    graphs.node("left", "add")
    graphs.node("right", "multiply")
    graphs.edge("x", to: "left", "a")
    graphs.edge("y", to: "right", "a")
    var evaluator = try graphs.evaluator(options: EngineOptions(demandDriven: true))
    evaluator.observe("left")
    #expect(Set(evaluator.evaluate().ran) == ["x", "left"])
    #expect(evaluator.outputs(of: "left") == ["result": .number(1)])
    evaluator.observe("right")
    #expect(Set(evaluator.evaluate().ran) == ["y", "right"], "the stale nodes run once they become necessary")
    evaluator.unobserve("left")
    #expect(!evaluator.isNecessary("x") && evaluator.isNecessary("y"))
  }
}
