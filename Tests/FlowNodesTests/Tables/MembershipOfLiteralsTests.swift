import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `x in (literals…)` compares with each literal (once per entry of a dictionary column)
/// instead of against columns of copies: on random tables, flat and dictionary-encoded, with
/// nulls, it gives exactly what `x == a or x == b or …` gives, and what `in` gives when an item
/// is not a literal (the general path).
@Suite struct MembershipOfLiteralsTests {
  static let formulas: [(column: String, items: [String])] = [
    ("low", ["\"a\"", "\"Zed\"", "\"\"", "\"e\u{301}\""]),
    ("key", ["\"k1\"", "\"k3\"", "\"k99\""]),
    ("high", ["\"s5\"", "\"s17\""]),
    ("n", ["1", "-3", "2.5"]),
    ("x", ["0.5", "2", "-1.25"]),
    ("low", ["\"m\""])
  ]

  @Test(arguments: [3, 19, 41]) func inOfLiteralsIsTheOrOfEqualities(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let table = DictionaryStringColumnTests.randomTable(&random, rows: 700 + Int(seed) * 13)
    for input in [table, DictionaryStringColumnTests.encoded(table)] {
      var columns: [JSONMember] = []
      for (index, formula) in Self.formulas.enumerated() {
        let list = formula.items.joined(separator: ", ")
        let equalities = formula.items.map { "\(formula.column) == \($0)" }.joined(separator: " or ")
        // `+ ""` / `+ 0` keep the first item from being a literal: the general path.
        let general =
          formula.items[0].hasPrefix("\"")
          ? "\(formula.column) in (concat(\(formula.items[0]), \"\")"
            + formula.items.dropFirst().map { ", \($0)" }.joined() + ")"
          : "\(formula.column) in (\(formula.items[0]) + 0" + formula.items.dropFirst().map { ", \($0)" }.joined() + ")"
        columns.append(JSONMember(key: "in\(index)", value: .string("\(formula.column) in (\(list))")))
        columns.append(JSONMember(key: "or\(index)", value: .string(equalities)))
        columns.append(JSONMember(key: "gen\(index)", value: .string(general)))
      }
      let output = try KindHarness.table("derive", ["columns": .object(JSONObject(columns))], [.table(input)])
      for index in Self.formulas.indices {
        let fast = try #require(output.column(named: "in\(index)"))
        #expect(fast == output.column(named: "or\(index)"), "seed \(seed): \(Self.formulas[index])")
        #expect(fast == output.column(named: "gen\(index)"), "seed \(seed): \(Self.formulas[index])")
      }
    }
  }

  @Test func aNullItemKeepsSQLsThreeValuedOr() throws {
    let table = try Table([("s", .strings(["a", "b", nil]))])
    let output = try KindHarness.table("derive", ["columns": ["m": "s in (\"a\", null)"]], [.table(table)])
    #expect(output.jsonRows == [["s": "a", "m": true], ["s": "b", "m": nil], ["s": nil, "m": nil]] as JSONValue)
  }
}
