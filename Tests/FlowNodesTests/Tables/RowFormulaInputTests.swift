import FlowGraph
import FlowTestSupport
@testable import FlowRuntime
import Testing
@testable import FlowNodes

/// `@name` in row formulas: the node's scalar input `name`, a constant in the formula, for
/// `filter`, `derive`, `sort` and `window`; a change of its value reruns that node and its
/// descendants only.
@Suite struct RowFormulaInputTests {
  @Test func filterComparesWithTheThresholdInput() throws {
    var fed = try FedPipeline("filter", ["where": "delay > @threshold"], param: "threshold")
    let first = try fed.run(.integer(10))
    #expect(first.failure == nil)
    #expect(first.table?.cells("delay") == [.integer(40), .integer(20)])
    let second = try fed.run(.number(-4.5))
    #expect(second.table?.cells("delay") == [.integer(5), .integer(40), .integer(20), .integer(-3)])
    #expect(second.ran == ["after", "feed", "node"])
    let third = try fed.run(.integer(-1))
    #expect(third.table?.cells("delay") == [.integer(5), .integer(40), .integer(20)])
  }

  @Test func aStringInputIsAStringLiteralEvenWithQuotes() throws {
    var fed = try FedPipeline("filter", ["where": "carrier == @name or carrier == \"@name\""], param: "name")
    #expect(try fed.run(.string("AA")).table?.cells("delay") == [.integer(5), .integer(20)])
    #expect(try fed.run(.string("A\"A\\")).table?.rowCount == 0)
  }

  @Test func deriveWritesTheInputIntoEveryFormulaThatNamesIt() throws {
    var fed = try FedPipeline(
      "derive", ["columns": ["late": "delay > @limit", "margin": "delay - @limit"]], param: "limit")
    let table = try #require(try fed.run(.integer(15)).table)
    #expect(table.cells("late") == [.bool(false), .bool(true), .bool(true), .bool(false)])
    #expect(table.cells("margin") == [.integer(-10), .integer(25), .integer(5), .integer(-18)])
    #expect(table.columnNames == ["carrier", "delay", "late", "margin"])
  }

  @Test func sortOrdersByAFormulaWithTheInput() throws {
    var fed = try FedPipeline("sort", ["by": ["abs(delay - @target)"]], param: "target")
    #expect(try fed.run(.integer(20)).table?.cells("delay") == [.integer(20), .integer(5), .integer(40), .integer(-3)])
    #expect(try fed.run(.integer(0)).table?.cells("delay") == [.integer(-3), .integer(5), .integer(20), .integer(40)])
  }

  @Test func windowTakesTheInputAsLagsDefault() throws {
    var fed = try FedPipeline(
      "window", ["orderBy": ["delay"], "columns": ["previous": "lag(delay, 1, @fill)"]], param: "fill")
    let zero = try fed.run(.integer(0))
    #expect(zero.failure == nil, "\(zero.failure ?? "")")
    let seven = try fed.run(.integer(7))
    #expect(seven.failure == nil, "\(seven.failure ?? "")")
    #expect(seven.ran == ["after", "feed", "node"])
    // Only the first row in delay order (-3, the last row) takes the default.
    #expect(zero.table?.cells("previous").dropLast() == seven.table?.cells("previous").dropLast())
    #expect(zero.table?.cells("previous").last != seven.table?.cells("previous").last)
  }

  @Test func anUnconnectedInputFailsTheNodeNamingIt() throws {
    var pipeline = try TablePipeline("filter", ["where": "delay > @threshold"])
    let outcome = try pipeline.run(try Table(FedPipeline.flights))
    #expect(outcome.failure?.hasPrefix("input 'threshold' is not connected") == true, "\(outcome.failure ?? "")")
    // A param of the same name sets it.
    var set = try TablePipeline("filter", ["where": "delay > @threshold", "threshold": 30])
    #expect(try set.run(try Table(FedPipeline.flights)).table?.cells("delay") == [.integer(40)])
  }

  @Test func aListOnAScalarInputFailsTheNodeNamingIt() throws {
    var fed = try FedPipeline("filter", ["where": "delay > @threshold"], param: "threshold")
    #expect(
      try fed.run(.list([.integer(1)])).failure
        == "input 'threshold' is list; '@threshold' takes a number, integer, string or bool")
  }

  @Test func aSyntaxErrorIsStillAValidationError() throws {
    let document = FlowDocument(nodes: [.node("f", "filter", params: ["where": "delay > @threshold and"])], edges: [])
    #expect(throws: GraphValidationError.self) {
      try GraphEvaluator(validating: document, registry: FedPipeline.registry)
    }
  }

  @Test func theNamesAreScannedOutsideStringsAndQuotedNames() {
    let inputs = RowFormulaInputs("a > @x and b == \"@y\" and `@z` < @x + @w_2")
    #expect(inputs.names == ["x", "w_2"])
    #expect(inputs.placeholderText == "a > null and b == \"@y\" and `@z` < null + null")
    #expect(inputs.text(with: ["1", "(-2)"]) == "a > 1 and b == \"@y\" and `@z` < 1 + (-2)")
  }
}
