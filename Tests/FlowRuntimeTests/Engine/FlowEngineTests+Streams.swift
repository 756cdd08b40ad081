import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

extension FlowEngineTests {
  // reader: subscribe ─ engine: pass r1 … pass r1100 (values and reports published, nobody reading)
  // reader:                                      shutDown ─ drain: newest value; newest 1,024 reports
  @Test func unreadStreamsKeepOnlyTheNewestValueAndABoundedTailOfReports() async throws {
    let engine = try FlowEngine(document: Self.calculator(), registry: .standard)
    await engine.evaluate()
    // Iterators subscribe when made; the first report (the latest when they subscribe) is
    // among the oldest, dropped.
    var values = engine.values(of: "twice").makeAsyncIterator()
    var reports = engine.reports.makeAsyncIterator()
    let passes = FlowEngine.reportBufferLimit + 76
    for step in 1...passes {
      try Self.setNumber(engine.store, "y", Double(step))
      await engine.evaluate()
    }
    let newest = engine.store.revision
    engine.shutDown()  // ends both sequences after what they buffered

    var seenValues: [[String: Value]] = []
    while let update = await values.next() { seenValues.append(update.outputs ?? [:]) }
    #expect(seenValues == [["result": .number(2 * (2 + Double(passes)))]])

    var seenRevisions: [Int] = []
    while let report = await reports.next() { seenRevisions.append(report.revision) }
    #expect(seenRevisions.count == FlowEngine.reportBufferLimit)
    #expect(seenRevisions.last == newest)
    #expect(seenRevisions.elementsEqual((newest - FlowEngine.reportBufferLimit + 1)...newest))
  }

  // engine: pass r1 ─ pass r2 ─ pass r3      reader: next() → r3's value (not r1's), then r4's
  @Test func aSlowValueReaderGetsTheLatestValueNotAStaleOne() async throws {
    let engine = try FlowEngine(document: Self.calculator(), registry: .standard)
    await engine.evaluate()
    var values = engine.values(of: "twice").makeAsyncIterator()
    for value in [4.0, 5, 6] {
      try Self.setNumber(engine.store, "y", value)
      await engine.evaluate()
    }
    #expect(await values.next()?.outputs == ["result": .number(16)])
    try Self.setNumber(engine.store, "y", 7)
    #expect(await values.next()?.outputs == ["result": .number(18)])
    engine.shutDown()
  }
}
