import FlowGraph
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// Keys are strings compared by Unicode scalars (Reference.md, "Evaluation"), in `groupBy`, `join` and
/// `countDistinct` as in `sort` and `filter`: a precomposed "é" and "e" + U+0301 are different
/// keys, although Swift's `==` calls them equal.
@Suite struct TableKindStringKeyTests {
  static let composed = "\u{E9}", decomposed = "e\u{301}"

  @Test func groupByKeepsCanonicallyEquivalentStringsApart() throws {
    let table = try Table([("s", .strings([Self.composed, Self.decomposed, Self.composed, nil]))])
    let grouped = try KindHarness.table("groupBy", ["by": ["s"], "aggregate": ["n": "count()"]], [.table(table)])
    #expect(
      KindHarness.rows(grouped) == [
        [.string(Self.composed), .integer(2)], [.string(Self.decomposed), .integer(1)],
        [.null, .integer(1)]
      ])
    let distinct = try KindHarness.table("groupBy", ["aggregate": ["d": "countDistinct(s)"]], [.table(table)])
    #expect(KindHarness.rows(distinct) == [[.integer(2)]])
  }

  @Test func joinMatchesOnlyEqualScalars() throws {
    let left = try Table([("k", .strings([Self.composed, Self.decomposed, "x"]))])
    let right = try Table([("k", .strings([Self.decomposed, "x"])), ("v", .integers([1, 2]))])
    let joined = try KindHarness.table("join", ["on": ["k"], "how": "left"], [.table(left), .table(right)])
    #expect(
      KindHarness.rows(joined) == [
        [.string(Self.composed), .null], [.string(Self.decomposed), .integer(1)],
        [.string("x"), .integer(2)]
      ])
  }

  @Test func reduceNamesAFailingItemByItsPositionCountingNulls() {
    let list: Value = .list([.null, .integer(1), .null, .string("x")])
    #expect(
      KindHarness.failure { try KindHarness.run("reduce", ["op": "sum"], [list]) }
        == "sum: item #4 is string, not a number")
    #expect(KindHarness.failure { try KindHarness.run("reduce", ["op": "max"], [list]) }?.hasPrefix("item #4 ") == true)
  }

  @Test func reduceMinAndMaxOfEquivalentStringsFollowScalars() throws {
    // `Value ==` on strings is Swift's canonical equivalence, so compare the scalars.
    func scalars(_ op: String, _ items: [String?]) throws -> [Unicode.Scalar] {
      let list = Value.list(items.map { $0.map(Value.string) ?? .null })
      guard case .string(let text) = try KindHarness.run("reduce", ["op": .string(op)], [list])[0] else { return [] }
      return Array(text.unicodeScalars)
    }
    let composed = Array(Self.composed.unicodeScalars), decomposed = Array(Self.decomposed.unicodeScalars)
    #expect(try scalars("max", [Self.decomposed, nil, Self.composed]) == composed)
    #expect(try scalars("min", [Self.composed, nil, Self.decomposed]) == decomposed)
    #expect(try scalars("first", [nil, Self.composed, Self.decomposed]) == composed)
    #expect(try scalars("last", [Self.composed, Self.decomposed, nil]) == decomposed)
  }

  @Test func joinNamesTheTableThatLacksAKey() throws {
    let left = try Table([("k", .strings(["a"]))]), right = try Table([("id", .strings(["a"]))])
    #expect(
      KindHarness.failure { try KindHarness.table("join", ["on": ["k"]], [.table(left), .table(right)]) }
        == "no column 'k' in the right table (columns: 'id')")
    #expect(
      KindHarness.failure { try KindHarness.table("join", ["on": ["id"]], [.table(left), .table(right)]) }
        == "no column 'id' in the left table (columns: 'k')")
  }
}
