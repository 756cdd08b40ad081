import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

/// The engine's waiting and publishing contract under real threads: no lost wake-up, no value
/// of an older revision after a newer one was asked for, `nil` at shutdown.
///
/// The time limit detects a lost wake-up (an `evaluate()` suspended forever); it is generous
/// because these suites share two cores with every other suite, under ThreadSanitizer too.
@Suite(.timeLimit(.minutes(10))) struct FlowEngineWakeUpTests {
  static func numbers(_ count: Int) -> FlowDocument {
    var graphs = Graphs()
    for index in 0..<count {
      graphs.number("n\(index)", 0)
      graphs.node("d\(index)", "multiply", ["b": 2])
      graphs.edge("n\(index)", to: "d\(index)", "a")
    }
    return graphs.document
  }

  /// Round trips `updateNode` + `await evaluate()` on node `n<index>`; each must see its value.
  static func roundTrips(_ engine: FlowEngine, index: Int, count: Int) async throws {
    for step in 1...count {
      try FlowEngineTests.setNumber(engine.store, "n\(index)", Double(step))
      let report = try #require(await engine.evaluate())
      #expect(report.revision >= 1)
      if step % 500 == 0 {
        #expect(await engine.outputs(of: "d\(index)") == ["result": .number(Double(2 * step))])
      }
    }
  }

  @MainActor static func mainActorRoundTrips(_ engine: FlowEngine, index: Int, count: Int) async throws {
    try await roundTrips(engine, index: index, count: count)
  }

  /// ```
  /// task 0..3:  update ─ evaluate ─ update ─ evaluate ─ …   (2,500 round trips each)
  /// main actor: update ─ evaluate ─ …                        (2,000 round trips)
  /// runner:        pass ─ publish ─ pass ─ publish ─ idle ─ …
  /// ```
  /// A lost wake-up leaves one `evaluate()` suspended forever (the time limit fails the test).
  @Test func thousandsOfRoundTripsFromSeveralTasksAndTheMainActorAllReturn() async throws {
    let engine = try FlowEngine(document: Self.numbers(5), registry: .standard)
    #expect(await engine.evaluate() != nil, "the first evaluate() after init returns")
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<4 {
        group.addTask { try await Self.roundTrips(engine, index: index, count: 2_500) }
      }
      group.addTask { try await Self.mainActorRoundTrips(engine, index: 4, count: 2_000) }
      try await group.waitForAll()
    }
    let last = try #require(await engine.evaluate())
    #expect(last.revision == engine.store.revision)
    for index in 0..<4 { #expect(await engine.outputs(of: "d\(index)") == ["result": .number(5_000)]) }
    #expect(await engine.outputs(of: "d4") == ["result": .number(4_000)])
  }

  @Test func theFirstEvaluateAfterInitReturnsEveryTime() async throws {
    for _ in 0..<2_000 {
      let engine = try FlowEngine(document: Self.numbers(1), registry: .standard)
      let report = try #require(await engine.evaluate())
      #expect(report.revision == 0 && !report.wasCancelled)
    }
  }
}
