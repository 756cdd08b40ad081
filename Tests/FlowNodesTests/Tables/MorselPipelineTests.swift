@testable import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

/// `MorselPipeline` (a Parquet chain's row groups made on several threads, consumed in order)
/// against a serial loop: random counts, worker counts and windows, with morsels or the
/// consumer failing at random places. (The counters are `Locked`, which ThreadSanitizer sees.)
@Suite struct MorselPipelineTests {
  struct Failure: Error, Equatable { let index: Int }

  @Test func morselsAreConsumedInOrderWhateverTheThreads() throws {
    var random = SeededRandom(seed: 41)
    for _ in 0..<200 {
      let count = Int.random(in: 0...40, using: &random)
      let workers = Int.random(in: 1...7, using: &random)
      let window = Bool.random(using: &random) ? nil : Int.random(in: 1...5, using: &random)
      let made = Locked(0)
      var consumed: [Int] = []
      try MorselPipeline.run(
        count: count, workers: workers, window: window,
        produce: { index in
          made.withLock { $0 += 1 }
          return index * index
        },
        consume: { consumed.append($0) })
      #expect(consumed == (0..<count).map { $0 * $0 })
      #expect(made.withLock { $0 } == count, "each morsel is made once")
    }
  }

  /// A failing morsel: the morsels before it are consumed, its error is thrown, and no morsel
  /// past the window after it is made.
  @Test func aFailingMorselStopsThePipelineAfterTheMorselsBeforeIt() {
    var random = SeededRandom(seed: 42)
    for _ in 0..<200 {
      let count = Int.random(in: 1...40, using: &random)
      let workers = Int.random(in: 1...7, using: &random)
      let window = Int.random(in: 1...5, using: &random)
      let failing = Set(
        (0..<Int.random(in: 1...3, using: &random)).map { _ in Int.random(in: 0..<count, using: &random) })
      let highest = Locked(-1)
      var consumed: [Int] = []
      #expect(throws: Failure(index: failing.min()!)) {
        try MorselPipeline.run(
          count: count, workers: workers, window: window,
          produce: { index in
            highest.withLock { $0 = max($0, index) }
            if failing.contains(index) { throw Failure(index: index) }
            return index
          },
          consume: { consumed.append($0) })
      }
      #expect(consumed == Array(0..<failing.min()!))
      #expect(highest.withLock { $0 } < failing.min()! + window, "claims stay within the window")
    }
  }

  /// The consumer failing: its error is thrown and the call returns (the producers stopped).
  @Test func aFailingConsumerStopsTheProducers() {
    var random = SeededRandom(seed: 43)
    for _ in 0..<200 {
      let count = Int.random(in: 1...40, using: &random)
      let workers = Int.random(in: 2...7, using: &random)
      let stopAt = Int.random(in: 0..<count, using: &random)
      let made = Locked(0)
      #expect(throws: Failure(index: stopAt)) {
        try MorselPipeline.run(
          count: count, workers: workers, window: 2,
          produce: { index in
            made.withLock { $0 += 1 }
            return index
          },
          consume: { if $0 == stopAt { throw Failure(index: $0) } })
      }
      #expect(made.withLock { $0 } <= stopAt + 1 + 2, "no morsel past the window is made")
    }
  }

  @Test func theStateClaimsWithinTheWindowAndTakesInOrder() throws {
    var state = MorselPipeline.State<Int>(count: 4, window: 2)
    #expect(state.claim() == .produce(0))
    #expect(state.claim() == .produce(1))
    #expect(state.claim() == .wait)
    state.complete(1, .success(10))
    #expect(state.take() == nil, "morsel 0 is not made yet")
    state.complete(0, .success(0))
    #expect(try state.take()?.get() == 0)
    #expect(state.claim() == .produce(2))
    #expect(try state.take()?.get() == 10)
    #expect(state.claim() == .produce(3))
    #expect(state.claim() == .finish)
    state.complete(2, .success(20))
    state.complete(3, .success(30))
    #expect(try state.take()?.get() == 20)
    #expect(try state.take()?.get() == 30)
    #expect(try state.take()?.get() == .some(nil), "after the last morsel")
  }
}
