import FlowGraph
import FlowTestSupport
@testable import FlowRuntime
import Testing
@testable import FlowNodes

/// `feed`: passes on the value set on its unconnected input `in` (a test stand-in for whatever
/// computes a param upstream).
struct FeedKind: StaticNodeKind {
  var name: String { "feed" }
  var summary: String { "out = in" }
  var inputs: [InputPort] { [InputPort("in", .any, default: .null)] }
  var outputs: [PortDeclaration] { [PortDeclaration("out", .any)] }
  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = inputs[0] }
}

/// Every param is also an input: an edge into a handle named like a param feeds it, the edge
/// wins over the document's value, the value is checked when the node runs, and a change of
/// the upstream value reruns that node and its descendants only.
@Suite struct ParameterInputTests {
  private typealias Fed = FedPipeline
  private static var registry: NodeKindRegistry { FedPipeline.registry }

  @Test func anEdgeIntoFilterWhereFeedsTheFormulaAndWinsOverTheDocument() throws {
    var fed = try Fed("filter", ["where": "delay > 100"], param: "where")
    let first = try fed.run(.string("delay > 10"))
    #expect(first.failure == nil)
    #expect(first.table?.cells("delay") == [.integer(40), .integer(20)])
    #expect(first.ran == ["after", "feed", "node", "other", "source"])
    let second = try fed.run(.string("carrier == \"AA\""))
    #expect(second.table?.cells("delay") == [.integer(5), .integer(20)])
    #expect(second.ran == ["after", "feed", "node"])
  }

  @Test func anEdgeIntoSortByFeedsAKeyList() throws {
    var fed = try Fed("sort", ["by": ["carrier"]], param: "by")
    let first = try fed.run(.list([.string("delay")]))
    #expect(first.table?.cells("delay") == [.integer(-3), .integer(5), .integer(20), .integer(40)])
    let second = try fed.run(.list([.string("-delay")]))
    #expect(second.table?.cells("delay") == [.integer(40), .integer(20), .integer(5), .integer(-3)])
    #expect(second.ran == ["after", "feed", "node"])
  }

  @Test func anEdgeIntoGroupByByFeedsTheKeyColumns() throws {
    var fed = try Fed("groupBy", ["by": [], "aggregate": ["n": "count()"]], param: "by")
    let outcome = try fed.run(.list([.string("carrier")]))
    #expect(outcome.failure == nil)
    #expect(outcome.table?.cells("carrier") == [.string("AA"), .string("UA"), .string("DL")])
    #expect(outcome.table?.cells("n") == [.integer(2), .integer(1), .integer(1)])
  }

  @Test func anEdgeIntoLimitCountTakesAWholeNumberAsTheInteger() throws {
    var fed = try Fed("limit", ["count": 1], param: "count")
    #expect(try fed.run(.number(3)).table?.rowCount == 3)
    #expect(try fed.run(.integer(2)).table?.rowCount == 2)
  }

  @Test func aValueThatDoesNotFitTheParamFailsTheNodeNamingIt() throws {
    var fed = try Fed("limit", ["count": 1], param: "count")
    let wrong = try fed.run(.string("three"))
    #expect(wrong.failure == "param 'count' must be an integer, found string \"three\" on its input")
    #expect(wrong.table == nil)
    var filter = try Fed("filter", ["where": "true"], param: "where")
    #expect(try filter.run(.string("delay >")).failure?.hasPrefix("param 'where'") == true)
    // After a failure, a good value runs again.
    #expect(try fed.run(.integer(1)).table?.rowCount == 1)
  }

  @Test func aNullFedValueLeavesTheWrittenParamInPlace() throws {
    var fed = try Fed("limit", ["count": 1], param: "count")
    #expect(try fed.run(.integer(3)).table?.rowCount == 3)
    let null = try fed.run(.null)
    #expect(null.failure == nil)
    #expect(null.table?.rowCount == 1, "the written count applies again")
    #expect(null.ran == ["after", "feed", "node"])
    var sort = try Fed("sort", ["by": ["carrier"]], param: "by")
    let sorted = try sort.run(.null)
    #expect(sorted.failure == nil, "a required param that is written does not need its input")
    #expect(sorted.table?.cells("carrier") == [.string("AA"), .string("AA"), .string("DL"), .string("UA")])
    var offset = try Fed("limit", ["count": 2], param: "offset")
    #expect(try offset.run(.integer(3)).table?.cells("delay") == [.integer(-3)])
    #expect(
      try offset.run(.null).table?.cells("delay") == [.integer(5), .integer(40)], "no offset written: its default")
  }

  @Test func settingTheSameFedValueRunsNothing() throws {
    var fed = try Fed("filter", ["where": "true"], param: "where")
    _ = try fed.run(.string("delay > 10"))
    let again = try fed.run(.string("delay > 10"))
    #expect(again.ran == [])
    #expect(again.table?.rowCount == 2)
  }

  @Test func aStoreBackedEngineFeedsTheParamAndRerunsOnlyWhatDependsOnIt() async throws {
    let rows: JSONValue = .array([["x": 1], ["x": 2], ["x": 3]])
    let document = FlowDocument(
      nodes: [
        .node("source", "tableInput", params: ["table": rows]), .node("k", "number", params: ["value": 2]),
        .node("top", "limit", params: ["count": 1]), .node("n", "rowCount"), .node("all", "rowCount")
      ],
      edges: [
        .edge("e1", "source.table", "top.table"), .edge("e2", "k.value", "top.count"),
        .edge("e3", "top.table", "n.table"), .edge("e4", "source.table", "all.table")
      ])
    let engine = try FlowEngine(document: document, registry: Self.registry)
    _ = await engine.evaluate()
    #expect(await engine.outputs(of: "n")?["count"] == .integer(2))
    try engine.store.updateNode(.node("k", "number", params: ["value": 3]))
    let report = await engine.evaluate()
    #expect(Set(report?.ran ?? []) == ["k", "top", "n"])
    #expect(await engine.outputs(of: "n")?["count"] == .integer(3))
    #expect(await engine.outputs(of: "all")?["count"] == .integer(3))
  }

  @Test func anEdgeIntoAHandleThatIsNeitherAnInputNorAParamIsStillRejected() throws {
    let document = FlowDocument(
      nodes: [.node("feed", "feed"), .node("node", "limit", params: ["count": 1])],
      edges: [.edge("e1", "feed.out", "node.cuont")])
    #expect(throws: GraphValidationError.self) { try GraphEvaluator(validating: document, registry: Self.registry) }
  }

  @Test func anEdgeIntoAnExpressionFormulaThatChangesItsInputsFailsTheNode() throws {
    let document = FlowDocument(
      nodes: [.node("feed", "feed"), .node("node", "expression", params: ["formula": "x + 1"])],
      edges: [.edge("e1", "feed.out", "node.formula")])
    var evaluator = try GraphEvaluator(validating: document, registry: Self.registry)
    try evaluator.setUnconnectedInput(try #require(evaluator.input("feed", "in")), to: .string("x * 2"))
    evaluator.evaluate()
    #expect(evaluator.failure(of: "node") == nil)
    try evaluator.setUnconnectedInput(try #require(evaluator.input("feed", "in")), to: .string("y * 2"))
    evaluator.evaluate()
    #expect(evaluator.failure(of: "node")?.contains("change the node's inputs") == true)
  }
}

/// `source (tableInput) → node (kind, params) → after (rowCount)`, a `feed` into `node.<param>`
/// and a side branch `other` (rowCount of the source) that no param reaches.
struct FedPipeline {
  var evaluator: GraphEvaluator
  let feed: InputReference

  static var registry: NodeKindRegistry {
    var registry = NodeKindRegistry.standard
    registry.register(TableInputKind())
    registry.register(FeedKind())
    return registry
  }

  static let flights = [
    CellColumn("carrier", .string, [.string("AA"), .string("UA"), .string("AA"), .string("DL")]),
    CellColumn("delay", .integer, [.integer(5), .integer(40), .integer(20), .integer(-3)])
  ]

  init(_ kind: String, _ params: JSONObject, param: String) throws {
    let document = FlowDocument(
      nodes: [
        .node("source", "tableInput"), .node("feed", "feed"), .node("node", kind, params: params),
        .node("after", "rowCount"), .node("other", "rowCount")
      ],
      edges: [
        .edge("e1", "source.table", "node.table"), .edge("e2", "feed.out", "node.\(param)"),
        .edge("e3", "node.table", "after.table"), .edge("e4", "source.table", "other.table")
      ])
    evaluator = try GraphEvaluator(validating: document, registry: FedPipeline.registry)
    let source = try #require(evaluator.input("source", "table"))
    try evaluator.setUnconnectedInput(source, to: .table(try Table(FedPipeline.flights)))
    feed = try #require(evaluator.input("feed", "in"))
  }

  /// Sets the fed value, runs a pass: which nodes ran, the node's table or failure.
  mutating func run(_ value: Value) throws -> (ran: [String], table: Table?, failure: String?) {
    try evaluator.setUnconnectedInput(feed, to: value)
    let report = evaluator.evaluate()
    return (report.ran.sorted(), evaluator.value(of: "node", port: "table")?.tableValue, evaluator.failure(of: "node"))
  }
}
