// swift-format-ignore-file
// (Documentation/CustomKinds.md quotes this file's code as written, see Scripts/check-snippets.py,
// so it keeps its own line breaks.)
import Foundation
import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

// The worked ticker of Documentation/CustomKinds.md ("Live kinds"), as written there.

/// `ticker`: a live source emitting `value` = step, 2 × step, … once a second on the engine's
/// clock. Its state is the last value, saved with the document and resumed from.
struct TickerKind: NodeKind {
  var name: String { "ticker" }
  var summary: String { "live source: emits value = step, 2 step, … every second" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("step", .integer, default: .integer(1), summary: "added at each tick")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let step = parameters.integer("step") ?? 1
    guard step > 0 else { throw NodeConfigurationError(parameter: "step", reason: "must be ≥ 1, found \(step)") }
    // No evaluator: a live instance's outputs come from its source.
    return NodeInstance(outputs: [PortDeclaration("value", .integer)],
                        live: .source(TickerSource(step: step), policy: .persistent))
  }
}

struct TickerSource: LiveSource {
  let step: Int64
  var initialState: Value { .integer(0) }

  /// Saved state comes back as JSON made a `Value`: check it, say why when it is unusable.
  func restore(_ saved: Value) throws(NodeError) -> Value {
    guard let last = saved.integerValue, last >= 0 else { throw NodeError("expected the last value (≥ 0), found \(saved)") }
    return .integer(last)
  }

  /// Emits from `state` on: one value per output port, and the state after it.
  func run(from state: Value, _ emitter: LiveEmitter) async throws {
    var value = state.integerValue ?? 0
    while true {
      try await emitter.sleep(for: .seconds(1))  // the engine's clock: a manual one in tests
      value += step
      try await emitter.emit([.integer(value)], state: .integer(value))
    }
  }
}

@Suite struct CustomLiveKindTests {
  static func document(step: Int = 2) -> FlowDocument {
    FlowDocument(nodes: [FlowNode(id: "t", data: NodeSpec(kind: "ticker", params: ["step": .number(Double(step))]))])
  }

  static var registry: NodeKindRegistry {
    var registry = NodeKindRegistry.standard
    registry.register(TickerKind())
    return registry
  }

  /// Advances the clock a second and returns the next value of `t`.
  static func tick(_ clock: ManualClock, _ values: inout NodeValues.Iterator) async -> Value? {
    await clock.waitForSleepers()
    clock.advance(by: .seconds(1))
    while let update = await values.next() {
      if let value = update.value(of: "value") { return value }
    }
    return nil
  }

  // clock: +1 s → 2, +1 s → 4, +1 s → 6 ─ save (state 6) ─ reload ─ +1 s → 8
  @Test func aTickerEmitsSavesItsStateAndResumes() async throws {
    let clock = ManualClock()
    let engine = try FlowEngine(document: Self.document(), registry: Self.registry, clock: clock)
    await engine.evaluate()
    var values = engine.values(of: "t").makeAsyncIterator()
    #expect(await Self.tick(clock, &values) == .integer(2))
    #expect(await Self.tick(clock, &values) == .integer(4))
    #expect(await Self.tick(clock, &values) == .integer(6))
    #expect(await engine.liveNodes().first?.policy == .persistent)
    let saved = await engine.documentWithLiveState()
    engine.shutDown()
    #expect(saved.liveState["t"] == .number(6))

    let clock2 = ManualClock()
    let resumed = try FlowEngine(document: try FlowDocument(jsonBytes: Array(saved.jsonString().utf8)),
                                 registry: Self.registry, clock: clock2)
    await resumed.evaluate()
    var resumedValues = resumed.values(of: "t").makeAsyncIterator()
    #expect(await Self.tick(clock2, &resumedValues) == .integer(8), "resumed after the saved value")
    resumed.shutDown()
  }

  @Test func unreadableSavedStateFailsTheNodeNamingWhy() async throws {
    var document = Self.document()
    document.liveState = ["t": "soon"]
    let engine = try FlowEngine(document: document, registry: Self.registry, clock: ManualClock())
    await engine.evaluate()
    #expect(await engine.failure(of: "t")?.contains("expected the last value") == true)
    engine.shutDown()
  }

  /// The guide's block that registers, runs and saves the ticker, as written there (on the
  /// default clock: one real second).
  @Test func theGuidesTickerBlockRunsAndSaves() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/ticking.flow.json"
    var document = Self.document(step: 1)
    document.nodes[0].id = "ticker"

    var registry = NodeKindRegistry.standard
    registry.register(TickerKind())
    let engine = try FlowEngine(document: document, registry: registry)
    for await update in engine.values(of: "ticker").prefix(2) { print(update.revision, update.value(of: "value") ?? "-") }
    let saved = await engine.documentWithLiveState()   // liveState: {"ticker": 1}, after one tick
    try saved.write(to: path)                          // atomic; a later engine resumes at 1
    engine.shutDown()

    let reloaded = try FlowDocument(contentsOf: path)
    #expect(reloaded.liveState["ticker"] == .number(1))
  }
}
