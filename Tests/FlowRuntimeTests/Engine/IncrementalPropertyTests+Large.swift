import FlowGraph
import FlowNodes
@testable import FlowRuntime
import FlowTestSupport

import Testing

extension IncrementalPropertyTests {
  /// The same property on graphs big enough for the queue's bitset mode (more than
  /// `RecomputeQueue.heapLimit` nodes queued) and for passes that begin with every node queued
  /// (`invalidateAll`, also after removals, when nothing is pushed), mixed with small updates
  /// that run chains through the scheduler bypass.
  @Test(arguments: 0..<24)
  func largeGraphsMatchAFromScratchEvaluation(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &+ 50_000)
    let document = Self.randomDocument(&random, nodeCount: 150 + Int(random.next() % 250))
    let store = try FlowStore(catalog: NodeKindRegistry.standard, document: document)
    let log = ChangeLog()
    let (snapshot, _, observation) = store.observe { log.append($0) }
    defer { observation.cancel() }
    var evaluator = try GraphEvaluator(validating: snapshot, registry: .standard)
    evaluator.evaluate()
    var fresh = 0
    for round in 0..<20 {
      for _ in 0..<(1 + random.next() % 3) { Self.randomEdit(store, &random, fresh: &fresh) }
      for change in log.drain() { evaluator.apply(change) }
      if round % 3 == 2 { evaluator.invalidateAll() }
      try Self.expectPassMatchesFromScratch(&evaluator, store: store, label: "seed \(seed) round \(round)")
    }
  }
}
