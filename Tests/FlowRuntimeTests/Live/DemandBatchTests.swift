import FlowGraph
import FlowNodes
@testable import FlowRuntime
import FlowTestSupport
import Testing

/// `observe(_ ids: [String])` against `observe(_:)` one id at a time, over random graphs: the
/// same demand counts, necessity and nodes that ran — for batches small enough to be walked and
/// large enough to be swept, before and after a first pass (stale nodes rerun when swept).
@Suite struct DemandBatchTests {
  typealias Property = IncrementalPropertyTests

  @Test(arguments: 0..<120)
  func aBatchOfObservationsCountsAsOneAtATime(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &+ 91_000)
    let document = Property.randomDocument(&random)
    let options = EngineOptions(demandDriven: true)
    var batched = try GraphEvaluator(validating: document, registry: .standard, options: options)
    var single = try GraphEvaluator(validating: document, registry: .standard, options: options)
    let ids = document.nodes.map(\.id) + ["absent"]
    for round in 0..<3 {
      // Round 0 may be swept (a batch of at least 64 ids, repeats included); then small ones.
      let size = round == 0 ? 64 + Int(random.next() % 64) : Int(random.next() % 6)
      let batch = (0..<size).map { _ in ids[Int(random.next() % UInt64(ids.count))] }
      batched.observe(batch)
      for id in batch { single.observe(id) }
      #expect(batched.demandCount == single.demandCount, "seed \(seed) round \(round): demand counts")
      for id in ids { #expect(batched.isNecessary(id) == single.isNecessary(id), "seed \(seed) round \(round): \(id)") }
      let ranBatched = batched.evaluate().ran
      let ranSingle = single.evaluate().ran
      #expect(Set(ranBatched) == Set(ranSingle), "seed \(seed) round \(round): nodes that ran")
      for id in ids where single.isNecessary(id) {
        #expect(batched.outputs(of: id) == single.outputs(of: id), "seed \(seed) round \(round): outputs of \(id)")
      }
      batched._checkInvariants()
    }
  }

  @Test func aLargeBatchIsSweptAndMatchesTheWalks() throws {
    // A chain of 200 numbers-and-adds, every add observed in one batch (the sweep), against
    // the walk of each: every node is necessary once, the chain's root 200 times over.
    var graphs = Graphs()
    graphs.number("x0", 1)
    for index in 1...200 {
      graphs.node("x\(index)", "add")
      graphs.edge("x\(index - 1)", to: "x\(index)", "a")
    }
    var evaluator = try graphs.evaluator(options: EngineOptions(demandDriven: true))
    evaluator.observe((1...200).map { "x\($0)" })
    #expect(evaluator.demandCount.allSatisfy { $0 > 0 })
    #expect(evaluator.demandCount[Int(evaluator.graph.indexByID["x200"]!)] == 1)
    #expect(evaluator.demandCount[Int(evaluator.graph.indexByID["x0"]!)] == 1, "one edge into a necessary node")
    #expect(evaluator.evaluate().ran.count == 201)
    #expect(evaluator.outputs(of: "x200") == ["result": .number(1)])
  }
}
