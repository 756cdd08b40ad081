import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// The corners that were quadratic (Reference.md, "Files and limits": nothing is quadratic in a document's size) keep
/// their meaning at sizes where a quadratic algorithm would be slow: many `derive` columns
/// (each reading the one before), many `format` placeholders, many `groupBy` aggregates.
/// Their speed is measured by `flow-bench` W11, never here.
@Suite struct ManyEntriesTests {
  @Test func aDeriveOfThousandsOfChainedColumnsComputesEachFromTheLast() throws {
    let count = 3_000
    var members = [JSONMember(key: "a", value: .string("a + 1"))]  // replaces `a` in place
    for index in 0..<count {
      members.append(JSONMember(key: "c\(index)", value: .string(index == 0 ? "a * 2" : "c\(index - 1) + 1")))
    }
    let input = try Table([("a", Column(.integer([1, 10]))), ("z", Column(.integer([0, 0])))])
    let table = try #require(
      try KindHarness.run("derive", ["columns": .object(JSONObject(members))], [.table(input)]).first)
    guard case .table(let output) = table else { Issue.record("no table"); return }
    #expect(output.columnCount == count + 2)
    #expect(Array(output.columnNames.prefix(3)) == ["a", "z", "c0"])
    #expect(output.column(named: "a").map { [$0[0], $0[1]] } == [.integer(2), .integer(11)])
    #expect(
      output.column(named: "c\(count - 1)").map { [$0[0], $0[1]] } == [
        .integer(4 + Int64(count) - 1), .integer(22 + Int64(count) - 1)
      ])
  }

  @Test func aFormatOfThousandsOfDistinctPlaceholdersFillsEach() throws {
    let count = 5_000
    let template = (0..<count).map { "{p\($0)}" }.joined(separator: "-") + "{p0}"
    let inputs = (0..<count).map { Value.integer(Int64($0)) }
    let text = try KindHarness.run("format", ["template": .string(template)], inputs).first?.text
    #expect(text == (0..<count).map(String.init).joined(separator: "-") + "0")
  }

  @Test func aGroupByOfThousandsOfAggregatesComputesEach() throws {
    let count = 5_000
    let members = (0..<count).map { JSONMember(key: "s\($0)", value: .string($0 % 2 == 0 ? "sum(v)" : "count()")) }
    let input = try Table([("k", Column(.integer([1, 2, 1]))), ("v", Column(.integer([5, 7, 9])))])
    let output = try KindHarness.table(
      "groupBy", ["by": .array([.string("k")]), "aggregate": .object(JSONObject(members))],
      [.table(input)])
    #expect(output.columnCount == count + 1)
    #expect(output.column(named: "s\(count - 2)").map { [$0[0], $0[1]] } == [.integer(14), .integer(7)])
    #expect(output.column(named: "s\(count - 1)").map { [$0[0], $0[1]] } == [.integer(2), .integer(1)])
  }

  @Test func aGroupByNamingAnOutputTwiceIsStillAValidationError() throws {
    let members = [JSONMember(key: "k", value: .string("count()"))]
    let document = FlowDocument(nodes: [
      .node(
        "g", "groupBy",
        params: [
          "by": .array([.string("k")]),
          "aggregate": .object(JSONObject(members))
        ])
    ])
    #expect {
      _ = try GraphEvaluator(validating: document, registry: .standard)
    } throws: { error in
      (error as? GraphValidationError)?.issues.first?.message.contains("names the output column 'k' twice") == true
    }
  }
}
