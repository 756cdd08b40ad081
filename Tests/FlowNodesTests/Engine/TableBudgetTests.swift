import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `rowsTable`: a table of `rows` rows (`k` = row % 3, `x` = row, `s` = "r<row>"): a source
/// whose size a param sets.
struct RowsTableKind: StaticNodeKind {
  var name: String { "rowsTable" }
  var summary: String { "table = rows numbered 0 ..< rows" }
  var inputs: [InputPort] { [InputPort("rows", .number, default: .number(10))] }
  var outputs: [PortDeclaration] { [PortDeclaration("table", .table)] }
  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    let count = Int(inputs[0].numberValue ?? 0)
    outputs[0] = .table(
      try Table([
        ("k", .integers((0..<count).map { Int64($0 % 3) })),
        ("x", .numbers((0..<count).map { Double($0) })),
        ("s", .strings((0..<count).map { "r\($0)" }))
      ]))
  }
}

/// The table memory budget on a fixed chain `src → f (filter) → d (derive) → g (groupBy) →
/// out (sort)`: what is dropped, when it is recomputed, and that nothing else changes.
@Suite struct TableBudgetTests {
  static var registry: NodeKindRegistry {
    var registry = NodeKindRegistry.standard
    registry.register(RowsTableKind())
    return registry
  }

  static let chain = FlowDocument(
    nodes: [
      .node("src", "rowsTable", params: ["rows": 200]),
      .node("f", "filter", params: ["where": "x > 10"]),
      .node("d", "derive", params: ["columns": ["y": "x * 2"]]),
      .node("g", "groupBy", params: ["by": ["k"], "aggregate": ["n": "count()", "t": "sum(y)"]]),
      .node("out", "sort", params: ["by": ["k"]])
    ],
    edges: [.edge("e1", "src", "f"), .edge("e2", "f", "d"), .edge("e3", "d", "g"), .edge("e4", "g", "out")])

  static func evaluator(budget: Int?) throws -> GraphEvaluator {
    var options = EngineOptions()
    options.tableMemoryBudget = budget
    return try GraphEvaluator(validating: chain, registry: registry, options: options)
  }

  static func expectSameStates(_ a: GraphEvaluator, _ b: GraphEvaluator, _ comment: Comment? = nil) {
    for id in a.presentNodeIDs { #expect(a.state(of: id) == b.state(of: id), comment) }
  }

  @Test func theLeastRecentlyUsedTablesAreDroppedUntilTheBudgetHolds() throws {
    var reference = try Self.evaluator(budget: nil)
    reference.evaluate()
    #expect(reference.tableMemory == nil)
    let small =
      TableBudget.tableBytes(of: reference.value(of: "g", port: "table")!)
      + TableBudget.tableBytes(of: reference.value(of: "out", port: "table")!)
    var bounded = try Self.evaluator(budget: small)
    let report = bounded.evaluate()
    #expect(report.ran == ["src", "f", "d", "g", "out"])
    let stats = try #require(bounded.tableMemory)
    // Used in the order f, d (each read by the next), g, out: f and d go first; the source is a
    // reader (no input) and is never dropped.
    #expect(stats.lastEvicted == ["f", "d"])
    #expect(stats.dropped == ["f", "d"])
    #expect(stats.evictions == 2 && stats.recomputations == 0)
    #expect(stats.heldBytes <= small && stats.heldBytes > 0)
    // Reading a dropped node recomputes it without keeping it.
    Self.expectSameStates(reference, bounded)
    #expect(bounded.tableMemory?.dropped == ["f", "d"])
    #expect(bounded.evaluationCount(of: "f") == 1)
    // A pass with nothing to do recomputes nothing.
    #expect(bounded.evaluate().ran.isEmpty)
    #expect(bounded.tableMemory?.lastRecomputed == [])
  }

  @Test func aDroppedTableIsRecomputedWhenAConsumerMustRunAndNothingElseReruns() throws {
    var reference = try Self.evaluator(budget: nil)
    var bounded = try Self.evaluator(budget: 0)
    reference.evaluate()
    bounded.evaluate()
    #expect(bounded.tableMemory?.dropped == ["f", "d", "g", "out"])
    // g's aggregates change: g needs d, d needs f; both are recomputed (not run), in that order.
    let edited = FlowNode.node("g", "groupBy", params: ["by": ["k"], "aggregate": ["n": "count()", "t": "sum(x)"]])
    reference.replaceNode(edited)
    bounded.replaceNode(edited)
    let (u, b) = (reference.evaluate(), bounded.evaluate())
    #expect(b.ran == ["g", "out"] && u.ran == b.ran)
    #expect(bounded.tableMemory?.lastRecomputed == ["f", "d"])
    #expect(bounded.evaluationCount(of: "f") == 1 && bounded.evaluationCount(of: "d") == 1)
    #expect(bounded.tableMemory?.heldBytes == 0)
    Self.expectSameStates(reference, bounded)
    // A source edit: f runs on its new input and d, g, out run after it, as without a budget.
    bounded.replaceNode(.node("src", "rowsTable", params: ["rows": 90]))
    reference.replaceNode(.node("src", "rowsTable", params: ["rows": 90]))
    let (u2, b2) = (reference.evaluate(), bounded.evaluate())
    #expect(u2.ran == b2.ran && b2.ran == ["src", "f", "d", "g", "out"])
    #expect(bounded.tableMemory?.lastRecomputed == [])
    Self.expectSameStates(reference, bounded)
    #expect((bounded.tableMemory?.recomputations ?? 0) == 2)
  }

  @Test func aDroppedTableIsRecomputedWhenObservedAndThenKept() throws {
    var reference = try Self.evaluator(budget: nil)
    var bounded = try Self.evaluator(budget: 0)
    reference.evaluate()
    bounded.evaluate()
    bounded.observe("d")
    reference.observe("d")
    let (u, b) = (reference.evaluate(), bounded.evaluate())
    #expect(u.ran.isEmpty && b.ran.isEmpty)
    // d is recomputed (f first, which d reads); f is dropped again, d is observed and kept.
    #expect(bounded.tableMemory?.lastRecomputed == ["f", "d"])
    #expect(bounded.tableMemory?.dropped == ["f", "g", "out"])
    #expect(bounded.value(of: "d", port: "table") == reference.value(of: "d", port: "table"))
    // Observed, it stays through passes that run it.
    bounded.replaceNode(.node("d", "derive", params: ["columns": ["y": "x * 3"]]))
    reference.replaceNode(.node("d", "derive", params: ["columns": ["y": "x * 3"]]))
    #expect(reference.evaluate().ran == bounded.evaluate().ran)
    #expect(bounded.tableMemory?.dropped.contains("d") == false)
    Self.expectSameStates(reference, bounded)
  }

  @Test func aDroppedNodeThatMustRunCountsAsChanged() throws {
    var reference = try Self.evaluator(budget: nil)
    var bounded = try Self.evaluator(budget: 0)
    reference.evaluate()
    bounded.evaluate()
    // f's new predicate keeps the same rows: the unbounded evaluator cuts off after f; the
    // bounded one no longer has f's old table to compare with, so d, g and out run again.
    let same = FlowNode.node("f", "filter", params: ["where": "x >= 11"])
    reference.replaceNode(same)
    bounded.replaceNode(same)
    let (u, b) = (reference.evaluate(), bounded.evaluate())
    #expect(u.ran == ["f"] && u.cutOff == ["f"])
    #expect(b.ran == ["f", "d", "g", "out"])
    #expect(bounded.tableMemory?.lastRecomputed == [])
    Self.expectSameStates(reference, bounded)
  }

  @Test func aFlowEngineWithABudgetPublishesWhatAnUnboundedOneDoes() async throws {
    var options = EngineOptions()
    options.tableMemoryBudget = 0
    let bounded = try FlowEngine(document: Self.chain, registry: Self.registry, options: options)
    let reference = try FlowEngine(document: Self.chain, registry: Self.registry)
    _ = await bounded.evaluate()
    _ = await reference.evaluate()
    let values = bounded.values(of: "d")
    for rows in [50, 120, 7] {
      for engine in [bounded, reference] {
        try engine.store.updateNode(.node("g", "groupBy", params: ["by": ["k"], "aggregate": ["n": "count()"]]))
      }
      let node = FlowNode.node("src", "rowsTable", params: .init(dictionaryLiteral: ("rows", .integer(Int64(rows)))))
      try bounded.store.updateNode(node)
      try reference.store.updateNode(node)
      let b = await bounded.evaluate(), u = await reference.evaluate()
      #expect(Set(b?.ran ?? []) == Set(u?.ran ?? []))
      for id in ["src", "f", "d", "g", "out"] {
        #expect(await bounded.state(of: id) == reference.state(of: id), "rows \(rows): \(id)")
      }
    }
    let stats = try #require(await bounded.tableMemory)
    #expect(stats.evictions >= 4 && stats.heldBytes == 0)
    #expect(await reference.tableMemory == nil)
    // A value subscriber of a dropped node gets its (recomputed) value.
    var iterator = values.makeAsyncIterator()
    let first = await iterator.next()
    #expect(first?.outputs?["table"] != nil)
    bounded.shutDown()
    reference.shutDown()
  }
}
