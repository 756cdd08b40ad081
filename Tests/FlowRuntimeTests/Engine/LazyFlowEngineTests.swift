import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

/// Lazy inputs through `FlowEngine` (passes on the runner task, or synchronous ones, under
/// TSan in CI): store edits to a branch not taken run nothing; flipping the condition runs the
/// branch with every edit it missed.
@Suite struct LazyFlowEngineTests {
  static func document() -> FlowDocument {
    var graphs = Graphs()
    graphs.number("cond", 1)
    graphs.number("a", 2)
    graphs.number("b", 4)
    graphs.node("quarter", "divide", ["a": 1])
    graphs.node("pick", "if")
    graphs.edge("b", to: "quarter", "b")
    graphs.edge("cond", to: "pick", "condition")
    graphs.edge("a", to: "pick", "then")
    graphs.edge("quarter", to: "pick", "else")
    return graphs.document
  }

  @Test func storeEditsFollowTheBranchTaken() async throws {
    let engine = try FlowEngine(document: Self.document(), registry: .standard)
    let first = try #require(await engine.evaluate())
    #expect(Set(first.ran) == ["cond", "a", "pick"])
    #expect(Set(first.notNeeded) == ["b", "quarter"])
    try FlowEngineTests.setNumber(engine.store, "b", 0)
    let untaken = try #require(await engine.evaluate())
    // The branch not taken never runs. (The `if` itself may run again when a pass reaches it
    // by the runner instead of synchronously, as under TSan: its output is then cut off.)
    #expect(
      !untaken.ran.contains("b") && !untaken.ran.contains("quarter"),
      "a division by zero in the branch not taken fails nothing")
    #expect(Set(untaken.ran).isSubset(of: ["pick"]))
    #expect(await engine.failure(of: "quarter") == nil)
    try FlowEngineTests.setNumber(engine.store, "b", 5)
    try FlowEngineTests.setNumber(engine.store, "cond", 0)
    let flipped = try #require(await engine.evaluate())
    #expect(Set(flipped.ran) == ["cond", "b", "quarter", "pick"])
    #expect(await engine.outputs(of: "pick") == ["value": .number(0.2)])
  }

  @Test func concurrentEnginesAgreeWithoutSynchronousPasses() async throws {
    var options = EngineOptions(runsCheapPassesSynchronously: false)
    options.maximumConcurrentNodes = 4
    let engine = try FlowEngine(document: Self.document(), registry: .standard, options: options)
    await engine.evaluate()
    for value in 0..<20 {
      try FlowEngineTests.setNumber(engine.store, "cond", Double(value % 2))
      try FlowEngineTests.setNumber(engine.store, "b", Double(value + 1))
    }
    await engine.evaluate()
    #expect(await engine.outputs(of: "pick") == ["value": .number(2)], "the last edits: cond 1 (then: a), b 20")
    try FlowEngineTests.setNumber(engine.store, "cond", 0)
    await engine.evaluate()
    #expect(await engine.outputs(of: "pick") == ["value": .number(0.05)], "1 / 20: the branch caught up")
  }
}
