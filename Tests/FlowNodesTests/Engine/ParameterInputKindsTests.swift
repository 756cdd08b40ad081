import FlowGraph
import FlowTestSupport
@testable import FlowRuntime
import Testing
@testable import FlowNodes

/// Every param is also an input, for every table kind with params: feeding a param a value gives
/// the outputs that writing that value in the document gives (the edge wins over a different
/// written value), and a null fed value gives the outputs of the value written.
@Suite struct ParameterInputKindsTests {
  /// A kind, its written params, the param fed and the value fed (different from the written one).
  struct Case: Sendable, CustomTestStringConvertible {
    var kind: String
    var params: JSONObject
    var param: String
    var fed: JSONValue
    var testDescription: String { "\(kind).\(param)" }
  }

  static let cases: [Case] = [
    Case(kind: "select", params: ["columns": ["carrier", "delay"]], param: "columns", fed: ["delay"]),
    Case(kind: "distinct", params: ["columns": ["delay"]], param: "columns", fed: ["carrier"]),
    // Fed records whose order is meaning: a later entry uses an earlier one, or the output's
    // columns follow it (sorted by name, each would fail or differ).
    Case(
      kind: "derive", params: ["columns": ["d": "delay * 2"]], param: "columns", fed: ["z": "delay * 10", "a": "z + 1"]),
    Case(
      kind: "window", params: ["orderBy": ["delay"], "columns": ["r": "rank()"]], param: "columns",
      fed: ["run": "cumsum(delay)", "before": "lag(run)"]),
    Case(kind: "unpivot", params: ["keep": ["carrier"]], param: "names", fed: "field"),
    Case(kind: "pivot", params: ["columns": "carrier", "values": "delay"], param: "aggregate", fed: "sum"),
    Case(
      kind: "groupBy", params: ["by": ["carrier"], "aggregate": ["n": "count()"]], param: "aggregate",
      fed: ["total": "sum(delay)", "n": "count()"]),
    Case(kind: "sort", params: ["by": ["carrier"]], param: "by", fed: ["-delay"]),
    Case(kind: "filter", params: ["where": "delay > 0"], param: "where", fed: "carrier == \"AA\""),
    Case(kind: "limit", params: ["count": 1], param: "count", fed: 3),
    Case(kind: "limit", params: ["count": 3], param: "offset", fed: 2)
  ]

  @Test(arguments: cases) func aFedParamGivesWhatWritingItGives(_ example: Case) throws {
    var written = example.params
    written[example.param] = example.fed
    let expected = try Self.outputs(example.kind, written)
    #expect(expected.failure == nil, "\(expected.failure ?? "")")
    #expect(
      expected.outputs != (try Self.outputs(example.kind, example.params)).outputs, "the case feeds another value")
    var fed = try FedPipeline(example.kind, example.params, param: example.param)
    _ = try fed.run(try #require(Value(json: example.fed, as: .any)))
    #expect(fed.evaluator.failure(of: "node") == nil)
    #expect(fed.evaluator.outputs(of: "node") == expected.outputs)
    _ = try fed.run(.null)
    #expect(
      fed.evaluator.outputs(of: "node") == (try Self.outputs(example.kind, example.params)).outputs,
      "a null fed value: the written param")
  }

  /// The outputs of `kind` with `params` on the flights table, nothing fed.
  static func outputs(_ kind: String, _ params: JSONObject) throws -> (outputs: [String: Value]?, failure: String?) {
    let document = FlowDocument(
      nodes: [.node("source", "tableInput"), .node("node", kind, params: params)],
      edges: [.edge("e1", "source.table", "node.table")])
    var evaluator = try GraphEvaluator(validating: document, registry: FedPipeline.registry)
    try evaluator.setUnconnectedInput(
      try #require(evaluator.input("source", "table")), to: .table(try Table(FedPipeline.flights)))
    evaluator.evaluate()
    return (evaluator.outputs(of: "node"), evaluator.failure(of: "node"))
  }
}
