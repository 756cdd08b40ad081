import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// Every `join` `how` against a nested-loop reference over rows of values, on hundreds of
/// random pairs of tables with null keys, duplicate keys, empty tables and integer keys meeting
/// number keys; the order rules of Reference.md, "Table semantics" included.
@Suite struct JoinKindPropertyTests {
  /// The reference join: nested loops over the rows, in the order the SPEC states.
  static func reference(_ how: String, left: Table, right: Table, keys: [String]) -> [[Value]] {
    let leftKeys = keys.map { left.columnIndex(named: $0)! }, rightKeys = keys.map { right.columnIndex(named: $0)! }
    let rightRest = right.columnNames.indices.filter { !keys.contains(right.columnNames[$0]) }
    let leftRows = KindHarness.rows(left), rightRows = KindHarness.rows(right)
    func matches(_ l: [Value], _ r: [Value]) -> Bool {
      zip(leftKeys, rightKeys).allSatisfy { CombineTables.joinEqual(l[$0], r[$1]) }
    }
    // A key column of a right or full join is `number` when the two sides' types differ.
    func keyType(_ position: Int) -> ColumnType {
      let p = left.column(at: leftKeys[position]).type, q = right.column(at: rightKeys[position]).type
      return p == q ? p : .number
    }
    func row(_ l: [Value]?, _ r: [Value]?) -> [Value] {
      var cells: [Value] = []
      for index in left.columnNames.indices {
        if (how == "right" || how == "full"), let position = leftKeys.firstIndex(of: index) {
          cells.append(CombineTables.converted(l?[index] ?? r![rightKeys[position]], to: keyType(position)))
        } else {
          cells.append(l?[index] ?? .null)
        }
      }
      return cells + rightRest.map { r?[$0] ?? .null }
    }
    var expected: [[Value]] = []
    switch how {
    case "semi", "anti":
      for l in leftRows where rightRows.contains(where: { matches(l, $0) }) == (how == "semi") { expected.append(l) }
    case "right":
      for r in rightRows {
        let found = leftRows.filter { matches($0, r) }
        expected += found.isEmpty ? [row(nil, r)] : found.map { row($0, r) }
      }
    default:
      for l in leftRows {
        let found = rightRows.filter { matches(l, $0) }
        if found.isEmpty {
          if how != "inner" { expected.append(row(l, nil)) }
        } else {
          expected += found.map { row(l, $0) }
        }
      }
      if how == "full" {
        for r in rightRows where !leftRows.contains(where: { matches($0, r) }) { expected.append(row(nil, r)) }
      }
    }
    return expected
  }

  @Test(arguments: 0..<300)
  func everyJoinKindMatchesANestedLoopReference(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let left = try CombineTables.table(
      [
        ("k", CombineTables.type(of: "k", clashes: false, &random)), ("s", .string),
        ("x", .number), ("b", .bool)
      ], &random)
    let prefix = Bool.random(using: &random) ? "r" : ""
    let right = try CombineTables.table(
      [
        ("s", .string), ("k", CombineTables.type(of: "k", clashes: false, &random)),
        (prefix + "x", .number), (prefix + "b", .bool)
      ], &random)
    let keys = Array(["k", "s"].shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)))
    let rightRest = right.columnNames.filter { !keys.contains($0) }
    for how in ["inner", "left", "right", "full", "semi", "anti"] {
      let joined = try KindHarness.table(
        "join", ["on": .array(keys.map { .string($0) }), "how": .string(how)],
        [.table(left), .table(right)])
      let names =
        how == "semi" || how == "anti"
        ? left.columnNames : left.columnNames + rightRest.map { left.columnNames.contains($0) ? $0 + "_right" : $0 }
      #expect(joined.columnNames == names, "\(how), seed \(seed)")
      #expect(
        KindHarness.rows(joined) == Self.reference(how, left: left, right: right, keys: keys), "\(how), seed \(seed)")
    }
  }
}
