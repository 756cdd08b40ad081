import FlowGraph
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// The table kinds of Reference.md, "Node kinds", one behaviour at a time, with nulls and empty tables.
@Suite struct TableKindTests {
  static let people = try! Table([
    ("name", .strings(["ann", "bob", "cy", "dee", nil])),
    ("team", .strings(["red", "blue", "red", nil, "blue"])),
    ("score", .integers([3, nil, 5, 1, 2])),
    ("weight", .numbers([1.5, 2.5, nil, 4, 0.5]))
  ])
  static let empty = try! Table([("team", .strings([])), ("score", .integers([]))])

  @Test func selectKeepsAndRenamesInOrder() throws {
    let table = try KindHarness.table("select", ["columns": ["score", "name as who"]], [.table(Self.people)])
    #expect(table.columnNames == ["score", "who"])
    #expect(table.column(named: "who") == Self.people.column(named: "name"))
    #expect(
      KindHarness.failure { try KindHarness.table("select", ["columns": ["nope"]], [.table(Self.people)]) }?
        .hasPrefix("no column 'nope'") == true)
  }

  @Test func sortIsStableWithNullsLastInBothDirections() throws {
    let ascending = try KindHarness.table("sort", ["by": ["team"]], [.table(Self.people)])
    #expect(
      ascending.column(named: "name")?.values == [.string("bob"), .null, .string("ann"), .string("cy"), .string("dee")])
    let descending = try KindHarness.table("sort", ["by": ["-score", "name"]], [.table(Self.people)])
    #expect(descending.column(named: "score")?.values == [.integer(5), .integer(3), .integer(2), .integer(1), .null])
    #expect(try KindHarness.table("sort", ["by": ["score"]], [.table(Self.empty)]).rowCount == 0)
  }

  @Test func sortComparesStringsByUnicodeScalars() throws {
    let table = try Table([("s", .strings(["é", "z", "Z", "e\u{301}", "a"]))])
    let sorted = try KindHarness.table("sort", ["by": ["s"]], [.table(table)])
    #expect(sorted.column(named: "s")?.values == ["Z", "a", "e\u{301}", "z", "é"].map { .string($0) })
  }

  @Test func groupByKeepsFirstAppearanceAndNullKeys() throws {
    let aggregate: JSONValue = .object(
      JSONObject([
        JSONMember(key: "n", value: "count()"), JSONMember(key: "total", value: "sum(score)"),
        JSONMember(key: "avg", value: "mean(weight)"), JSONMember(key: "lo", value: "min(name)"),
        JSONMember(key: "hi", value: "max(score)"), JSONMember(key: "first", value: "first(score)"),
        JSONMember(key: "last", value: "last(name)"), JSONMember(key: "kinds", value: "countDistinct(name)")
      ]))
    let table = try KindHarness.table("groupBy", ["by": ["team"], "aggregate": aggregate], [.table(Self.people)])
    #expect(table.columnNames == ["team", "n", "total", "avg", "lo", "hi", "first", "last", "kinds"])
    #expect(
      KindHarness.rows(table) == [
        [
          .string("red"), .integer(2), .integer(8), .number(1.5), .string("ann"), .integer(5), .integer(3),
          .string("cy"), .integer(2)
        ],
        [
          .string("blue"), .integer(2), .integer(2), .number(1.5), .string("bob"), .integer(2), .integer(2),
          .string("bob"), .integer(1)
        ],
        [
          .null, .integer(1), .integer(1), .number(4), .string("dee"), .integer(1), .integer(1), .string("dee"),
          .integer(1)
        ]
      ])
  }

  @Test func groupByWithoutKeysGivesOneRowEvenForAnEmptyTable() throws {
    let params: JSONObject = ["by": [], "aggregate": ["n": "count()", "s": "sum(score)"]]
    #expect(KindHarness.rows(try KindHarness.table("groupBy", params, [.table(Self.empty)])) == [[.integer(0), .null]])
    #expect(
      KindHarness.rows(try KindHarness.table("groupBy", params, [.table(Self.people)])) == [[.integer(5), .integer(11)]]
    )
    let grouped = try KindHarness.table(
      "groupBy", ["by": ["team"], "aggregate": ["n": "count()"]], [.table(Self.empty)])
    #expect(grouped.rowCount == 0)
    #expect(grouped.columnNames == ["team", "n"])
  }

  @Test func groupByRejectsBadAggregatesAtConfiguration() {
    guard
      case .failure(.invalidParameters(let problems)) = NodeKindRegistry.standard.configure(
        NodeSpec(kind: "groupBy", params: ["aggregate": ["x": "mode(a)"]]))
    else {
      Issue.record("expected a configuration error")
      return
    }
    #expect(problems.map(\.parameter) == ["aggregate"])
    #expect(
      KindHarness.failure {
        try KindHarness.table("groupBy", ["aggregate": ["s": "sum(name)"]], [.table(Self.people)])
      }?
      .contains("needs numbers") == true)
  }

  @Test func joinKeepsLeftOrderAndMatchesInRightOrder() throws {
    let left = try Table([("k", .integers([1, 2, nil, 3])), ("v", .strings(["a", "b", "c", "d"]))])
    let right = try Table([
      ("k", .numbers([2, 1, 2, nil])), ("v", .strings(["x", "y", "z", "w"])), ("w", .bools([true, false, nil, true]))
    ])
    let inner = try KindHarness.table("join", ["on": ["k"]], [.table(left), .table(right)])
    #expect(inner.columnNames == ["k", "v", "v_right", "w"])
    #expect(
      KindHarness.rows(inner) == [
        [.integer(1), .string("a"), .string("y"), .bool(false)],
        [.integer(2), .string("b"), .string("x"), .bool(true)],
        [.integer(2), .string("b"), .string("z"), .null]
      ])
    let outer = try KindHarness.table("join", ["on": ["k"], "how": "left"], [.table(left), .table(right)])
    #expect(outer.column(named: "v")?.values == ["a", "b", "b", "c", "d"].map { .string($0) })
    #expect(outer.column(named: "v_right")?.values == [.string("y"), .string("x"), .string("z"), .null, .null])
  }

  @Test func joinOfDifferentKeyTypesFails() throws {
    let left = try Table([("k", .integers([1]))]), right = try Table([("k", .strings(["1"]))])
    #expect(
      KindHarness.failure { try KindHarness.table("join", ["on": ["k"]], [.table(left), .table(right)]) }?
        .contains("integer on the left but string on the right") == true)
  }

  @Test func limitTakesCountRowsAfterOffset() throws {
    let table = try KindHarness.table("limit", ["count": 2, "offset": 1], [.table(Self.people)])
    #expect(table.column(named: "name")?.values == [.string("bob"), .string("cy")])
    #expect(try KindHarness.table("limit", ["count": 10, "offset": 4], [.table(Self.people)]).rowCount == 1)
    #expect(try KindHarness.table("limit", ["count": 3, "offset": 99], [.table(Self.people)]).rowCount == 0)
    #expect(KindHarness.failure { try KindHarness.table("limit", ["count": -1], [.table(Self.people)]) } != nil)
  }

  @Test func rowCountAndColumn() throws {
    #expect(try KindHarness.run("rowCount", [:], [.table(Self.people)]) == [.integer(5)])
    #expect(try KindHarness.run("rowCount", [:], [.table(Self.empty)]) == [.integer(0)])
    #expect(
      try KindHarness.run("column", ["name": "score"], [.table(Self.people)])
        == [.list([.integer(3), .null, .integer(5), .integer(1), .integer(2)])])
    #expect(
      KindHarness.failure { try KindHarness.run("rowCount", [:], [.integer(1)]) }
        == "input #1 is integer, expected table")
  }

  @Test(arguments: [
    ("sum", Value.integer(11)), ("mean", .number(2.75)), ("min", .integer(1)), ("max", .integer(5)),
    ("count", .integer(4)), ("first", .integer(3)), ("last", .integer(2))
  ])
  func reduceSkipsNulls(op: String, result: Value) throws {
    let list = Value.list([.integer(3), .null, .integer(5), .integer(1), .integer(2)])
    #expect(try KindHarness.run("reduce", ["op": .string(op)], [list]) == [result])
  }

  @Test func reduceOfNothingIsNullButCountIsZero() throws {
    #expect(try KindHarness.run("reduce", ["op": "sum"], [.list([.null])]) == [.null])
    #expect(try KindHarness.run("reduce", ["op": "max"], [.list([])]) == [.null])
    #expect(try KindHarness.run("reduce", ["op": "count"], [.list([])]) == [.integer(0)])
    #expect(try KindHarness.run("reduce", ["op": "sum"], [.list([.integer(1), .number(0.5)])]) == [.number(1.5)])
    #expect(try KindHarness.run("reduce", ["op": "min"], [.list([.string("b"), .string("a")])]) == [.string("a")])
    #expect(KindHarness.failure { try KindHarness.run("reduce", ["op": "sum"], [.list([.string("x")])]) } != nil)
  }
}
