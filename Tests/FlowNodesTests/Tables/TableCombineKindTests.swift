import FlowGraph
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `union`, `distinct` and the outer, semi and anti joins, one behaviour at a time: layouts,
/// messages, validation, and the row limit checked before anything is built.
@Suite struct TableCombineKindTests {
  static let flights = try! Table([
    ("tail", .strings(["N1", "N2", nil, "N1", "N9"])),
    ("year", .integers([2013, 2013, 2013, 2014, 2014]))
  ])
  static let planes = try! Table([
    ("tail", .strings(["N1", "N3", "N2", nil])),
    ("year", .integers([1990, 2001, 2005, 1999])),
    ("seats", .integers([100, 50, 200, 10]))
  ])

  static func join(_ how: String) throws -> Table {
    try KindHarness.table("join", ["on": ["tail"], "how": .string(how)], [.table(flights), .table(planes)])
  }

  @Test func aRightJoinFollowsTheRightOrderAndCarriesRightOnlyKeys() throws {
    let table = try Self.join("right")
    #expect(table.columnNames == ["tail", "year", "year_right", "seats"])
    #expect(table.column(named: "tail")?.values == ["N1", "N1", "N3", "N2", nil].map { $0.map(Value.string) ?? .null })
    #expect(table.column(named: "year")?.values == [.integer(2013), .integer(2014), .null, .integer(2013), .null])
    #expect(table.column(named: "seats")?.values == [100, 100, 50, 200, 10].map { .integer($0) })
  }

  @Test func aFullJoinIsTheLeftJoinThenTheUnmatchedRightRows() throws {
    let table = try Self.join("full")
    #expect(
      table.column(named: "tail")?.values
        == ["N1", "N2", nil, "N1", "N9", "N3", nil].map { $0.map(Value.string) ?? .null })
    #expect(
      table.column(named: "seats")?.values == [
        .integer(100), .integer(200), .null, .integer(100), .null, .integer(50), .integer(10)
      ])
    #expect(table.column(named: "year")?.values.suffix(2) == [.null, .null])
  }

  @Test func semiAndAntiKeepLeftRowsOnceWithLeftColumnsOnly() throws {
    let doubled = try Table.concatenating([Self.planes, Self.planes])
    let semi = try KindHarness.table("join", ["on": ["tail"], "how": "semi"], [.table(Self.flights), .table(doubled)])
    #expect(semi.columnNames == ["tail", "year"])
    #expect(semi.column(named: "tail")?.values == ["N1", "N2", "N1"].map { .string($0) })
    let anti = try Self.join("anti")
    // The null key never matches, so anti keeps it.
    #expect(anti.column(named: "tail")?.values == [.null, .string("N9")])
    #expect(anti.column(named: "year")?.values == [.integer(2013), .integer(2014)])
  }

  @Test func aRightOnlyRowWithAnIntegerKeyMeetingNumberKeysGivesANumberKeyColumn() throws {
    let left = try Table([("k", .integers([1, 2]))]), right = try Table([("k", .numbers([2, 3.5]))])
    let table = try KindHarness.table("join", ["on": ["k"], "how": "full"], [.table(left), .table(right)])
    #expect(table.column(named: "k")?.values == [.number(1), .number(2), .number(3.5)])
  }

  @Test func anUnknownHowListsEveryKind() {
    guard
      case .failure(.invalidParameters(let problems)) = NodeKindRegistry.standard.configure(
        NodeSpec(kind: "join", params: ["on": ["tail"], "how": "outer"]))
    else {
      Issue.record("expected a configuration error")
      return
    }
    #expect(problems.map(\.parameter) == ["how"])
    #expect(
      problems.map(\.reason) == [#"must be one of "inner", "left", "right", "full", "semi", "anti", found "outer""#])
  }

  @Test func unionMatchesColumnsByNameAndWidensIntegersToNumbers() throws {
    let a = try Table([("x", .integers([1, nil])), ("s", .strings(["p", "q"]))])
    let b = try Table([("t", .bools([true])), ("x", .numbers([2.5]))])
    let table = try KindHarness.table("union", [:], [.table(a), .table(b)])
    #expect(table.columnNames == ["x", "s", "t"])
    #expect(table.column(named: "x")?.values == [.number(1), .null, .number(2.5)])
    #expect(table.column(named: "s")?.values == [.string("p"), .string("q"), .null])
    #expect(table.column(named: "t")?.values == [.null, .null, .bool(true)])
  }

  @Test func unionFailsOnATypeClashNamingTheColumn() throws {
    let a = try Table([("id", .integers([1])), ("when", .strings(["2013"]))])
    let b = try Table([("when", .integers([2014])), ("id", .integers([2]))])
    let message = KindHarness.failure { try KindHarness.table("union", [:], [.table(a), .table(b)]) }
    #expect(message == "column 'when' is string in a but integer in b")
  }

  @Test func distinctKeepsTheFirstRowOfEachKeyWithNullEqualToNull() throws {
    let table = try Table([("k", .integers([1, nil, 1, nil, 2])), ("v", .strings(["a", "b", "c", "d", "a"]))])
    let byKey = try KindHarness.table("distinct", ["columns": ["k"]], [.table(table)])
    #expect(byKey.column(named: "v")?.values == ["a", "b", "a"].map { .string($0) })
    let byValue = try KindHarness.table("distinct", ["columns": ["v"]], [.table(table)])
    #expect(byValue.column(named: "k")?.values == [.integer(1), .null, .integer(1), .null])
    // Every column, and nothing repeats: the table itself.
    let all = try KindHarness.table("distinct", [:], [.table(table)])
    #expect(all.sharesStorage(with: table))
    #expect(
      KindHarness.failure { try KindHarness.table("distinct", ["columns": []], [.table(table)]) }?
        .contains("must name at least one column") == true)
    #expect(
      KindHarness.failure { try KindHarness.table("distinct", ["columns": ["nope"]], [.table(table)]) }?
        .hasPrefix("no column 'nope'") == true)
  }

  /// The message and the probe of a run of `kind` under a row limit of `maxRows`.
  static func limited(_ kind: String, _ params: JSONObject, _ inputs: [Value], maxRows: Int)
    -> (message: String?, probe: LimitProbe)
  {
    let probe = LimitProbe()
    let message = LimitProbe.$current.withValue(probe) {
      KindHarness.failure {
        try KindHarness.run(
          kind, params, inputs, environment: EvaluationEnvironment(limits: RunLimits(maxRows: maxRows)))
      }
    }
    return (message, probe)
  }

  @Test(arguments: [
    ("right", 300 * 200 + 1), ("full", 200 * 300 + 2), ("left", 200 * 300 + 1), ("semi", 200), ("anti", 1)
  ])
  func everyJoinKindChecksItsRowCountBeforeBuilding(how: String, rows: Int) throws {
    // 200 left rows of key 1 and one of key 2; 300 right rows of key 1 and one of key 3.
    let left = try Table([("k", Column(.integer([Int64](repeating: 1, count: 200) + [2])))])
    let right = try Table([
      ("k", Column(.integer([Int64](repeating: 1, count: 300) + [3]))),
      ("v", Column(.integer(Array(0..<301))))
    ])
    let params: JSONObject = ["on": ["k"], "how": .string(how)]
    let refused = Self.limited("join", params, [.table(left), .table(right)], maxRows: rows - 1)
    #expect(
      refused.message
        == "join output would have \(rows) rows, more than the row limit \(rows - 1) (raise it with --max-rows)")
    #expect(refused.probe.largestRowsGranted == 0)
    #expect(refused.probe.refusedCount == 1)
    let granted = Self.limited("join", params, [.table(left), .table(right)], maxRows: rows)
    #expect(granted.message == nil)
    #expect(granted.probe.largestRowsGranted == rows)
  }

  @Test func unionAndDistinctCheckTheirRowCountsBeforeBuilding() throws {
    let a = try Table([("k", Column(.integer([1, 1, 2])))]), b = try Table([("k", Column(.integer([3, 1])))])
    let union = Self.limited("union", [:], [.table(a), .table(b)], maxRows: 4)
    #expect(union.message == "union output would have 5 rows, more than the row limit 4 (raise it with --max-rows)")
    #expect(union.probe.largestRowsGranted == 0)
    #expect(union.probe.refusedCount == 1)
    let distinct = Self.limited("distinct", [:], [.table(a)], maxRows: 1)
    #expect(
      distinct.message == "distinct output would have 2 rows, more than the row limit 1 (raise it with --max-rows)")
    #expect(distinct.probe.largestRowsGranted == 0)
    #expect(Self.limited("distinct", [:], [.table(a)], maxRows: 2).message == nil)
  }
}
