@testable import FlowRuntime
import FlowTestSupport
import Testing

/// Seeded random DAGs, each through a first pass and rounds of edits; every pass replayed under
/// several random interleavings of completions and concurrency limits (`PassReplay` checks each
/// step), and compared with the reference evaluation (`PassModel.referencePass`): the same nodes
/// run, the same fail upstream, the same values and failure roots, whatever the interleaving.
extension PassStateMachineTests {
  static let seeds: [UInt64] = Array(1...60)

  @Test(arguments: seeds)
  func everyInterleavingMatchesTheReference(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var model = PassModel.random(&random)
    let count = model.passNodeCount
    var dirty = Array(0..<Int32(count))
    for round in 0..<5 {
      var expected = model
      let reference = expected.referencePass(dirty: Set(dirty))
      for interleaving in 0..<6 {
        var replay = PassReplay(model)
        replay.run(dirty: dirty.shuffled(using: &random), limit: Int.random(in: 1...4, using: &random), random: &random)
        let context = "seed \(seed) round \(round) interleaving \(interleaving)"
        #expect(Set(replay.ran) == reference.ran, "\(context): the nodes that ran")
        #expect(replay.ran.count == reference.ran.count, "\(context): a node ran twice")
        #expect(Set(replay.failedUpstream) == reference.failedUpstream, "\(context): the nodes failed upstream")
        #expect(replay.model.values == expected.values, "\(context): values")
        #expect(replay.model.failures == expected.failures, "\(context): failure roots")
      }
      model = expected
      dirty = Self.edit(&model, &random)
    }
  }

  /// A pass stopped at a random node, then a pass over what the stop returned, ends where one
  /// uninterrupted pass does.
  @Test(arguments: seeds)
  func aStoppedPassAndItsRerunEqualOnePass(seed: UInt64) {
    var random = SeededRandom(seed: seed &+ 1_000)
    var model = PassModel.random(&random)
    var dirty = Array(0..<Int32(model.passNodeCount))
    for round in 0..<4 {
      var expected = model
      let reference = expected.referencePass(dirty: Set(dirty))
      let handedOut = reference.ran.count + reference.failedUpstream.count
      var replay = PassReplay(model)
      let limit = Int.random(in: 1...3, using: &random)
      replay.run(
        dirty: dirty, limit: limit, random: &random, stopAt: Int.random(in: 0...max(0, handedOut), using: &random))
      if let rerun = replay.rerun {
        var resumed = PassReplay(replay.model)
        resumed.run(dirty: rerun, limit: limit, random: &random)
        replay = resumed
      }
      #expect(replay.model.values == expected.values, "seed \(seed) round \(round): values")
      #expect(replay.model.failures == expected.failures, "seed \(seed) round \(round): failure roots")
      model = expected
      dirty = Self.edit(&model, &random)
    }
  }

  /// A few random edits: new seeds (a source's value, a node's offset) or throwing flags.
  /// Returns the edited nodes (dirty).
  static func edit(_ model: inout PassModel, _ random: inout SeededRandom) -> [Int32] {
    var dirty: [Int32] = []
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      let node = Int32.random(in: 0..<Int32(model.passNodeCount), using: &random)
      if Int.random(in: 0..<4, using: &random) == 0 {
        model.throwing[Int(node)].toggle()
      } else {
        model.seeds[Int(node)] += Int.random(in: 1...5, using: &random)
      }
      if !dirty.contains(node) { dirty.append(node) }
    }
    return dirty
  }
}
