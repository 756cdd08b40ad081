import FlowGraph
import FlowTestSupport
@testable import FlowRuntime
import Testing
@testable import FlowNodes

/// `@name` as a window function's constant argument: `lag`/`lead`'s offset, a rolling window's
/// size. The node gives what the same function with the value written in gives, and a change of
/// the value reruns that node and its descendants only.
@Suite struct WindowOffsetInputTests {
  /// The `window` of `columns` written out, as a reference.
  static func written(_ columns: JSONObject) throws -> Table? {
    var pipeline = try TablePipeline("window", ["orderBy": ["delay"], "columns": .object(columns)])
    return try pipeline.run(try Table(FedPipeline.flights)).table
  }

  @Test(arguments: ["lag", "lead"])
  func theOffsetOfLagAndLeadIsAnInput(function: String) throws {
    var fed = try FedPipeline(
      "window", ["orderBy": ["delay"], "columns": ["shifted": .string("\(function)(delay, @n)")]], param: "n")
    for offset in [1, 2, 0, 3] {
      let outcome = try fed.run(.integer(Int64(offset)))
      #expect(outcome.failure == nil, "\(outcome.failure ?? "")")
      #expect(
        outcome.table?.cells("shifted")
          == (try Self.written(["shifted": .string("\(function)(delay, \(offset))")]))?.cells("shifted"),
        "\(function) offset \(offset)")
      if offset != 1 { #expect(outcome.ran == ["after", "feed", "node"]) }
    }
  }

  @Test func aWholeNumberOffsetCountsAndAFractionFailsNamingTheColumn() throws {
    var fed = try FedPipeline(
      "window", ["orderBy": ["delay"], "columns": ["sum": "rollingSum(delay, @days)"]], param: "days")
    let whole = try fed.run(.number(2))
    #expect(whole.failure == nil, "\(whole.failure ?? "")")
    #expect(whole.table?.cells("sum") == (try Self.written(["sum": "rollingSum(delay, 2)"]))?.cells("sum"))
    let fraction = try fed.run(.number(1.5))
    #expect(
      fraction.failure?.contains("column 'sum': the second argument of rollingSum must be an integer") == true,
      "\(fraction.failure ?? "")")
  }

  @Test func aWrittenNullOffsetIsStillAValidationError() throws {
    let document = FlowDocument(
      nodes: [.node("w", "window", params: ["columns": ["x": "lag(delay, null)"]])], edges: [])
    #expect(throws: GraphValidationError.self) {
      try GraphEvaluator(validating: document, registry: FedPipeline.registry)
    }
  }
}
