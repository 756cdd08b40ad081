import FlowGraph
import FlowNodes
import FlowNodesTestSupport
import FlowRuntime
import FlowTestSupport
import Testing

/// Live state saved into `flowRuntime.liveState` and restored keeps integers exact (Reference.md, "Documents").
@Suite struct LiveStateIntegerTests {
  @Test func aCounterNearInt64MaxSurvivesSaveAndRestoreExactly() async throws {
    var document = LiveEngineTests.clockAndCounter()
    let saved = try JSONValue.parse(#"{"c": 5, "k": 9223372036854775806}"#)
    document.liveState = try #require(saved.objectValue)
    let clock = ManualClock()
    let engine = try FlowEngine(document: document, registry: .standard, clock: clock)
    var values = engine.values(of: "k").makeAsyncIterator()
    await engine.evaluate()
    #expect(await LiveEngineTests.state(engine, "k")?.isIdentical(to: .integer(.max - 1)) == true)
    await LiveEngineTests.tick(clock, &values, expect: .max)
    let written = await engine.documentWithLiveState()
    engine.shutDown()
    #expect(written.liveState["k"]?.isIdentical(to: .integer(.max)) == true, "\(written.liveState)")
    #expect(written.liveState["c"]?.isIdentical(to: .integer(6)) == true)
    let text = written.jsonString()
    #expect(text.contains("\"k\" : 9223372036854775807"), "\(text)")
    let reloaded = try FlowDocument(jsonBytes: Array(text.utf8))
    #expect(reloaded.liveState["k"]?.isIdentical(to: .integer(.max)) == true)
    let resumed = try FlowEngine(document: reloaded, registry: .standard, clock: ManualClock())
    await resumed.evaluate()
    #expect(await LiveEngineTests.state(resumed, "k")?.isIdentical(to: .integer(.max)) == true)
    resumed.shutDown()
  }
}
