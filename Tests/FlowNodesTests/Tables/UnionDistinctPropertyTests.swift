import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `union` and `distinct` against plain reference implementations over rows of values, on
/// hundreds of random tables with nulls, duplicates, empty tables and integer/number mixes.
@Suite struct UnionDistinctPropertyTests {
  @Test(arguments: 0..<300)
  func unionMatchesARowByRowReference(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let pool = ["k", "s", "x", "b"]
    func schema() -> [(String, ColumnType)] {
      let names = Array(pool.shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random)))
      return names.map { ($0, CombineTables.type(of: $0, clashes: true, &random)) }
    }
    let a = try CombineTables.table(schema(), &random), b = try CombineTables.table(schema(), &random)
    // Reference: the names, then the type of each (the first clash in name order fails).
    let names = a.columnNames + b.columnNames.filter { !a.columnNames.contains($0) }
    var types: [ColumnType] = []
    var clash: String?
    for name in names {
      let p = a.column(named: name)?.type, q = b.column(named: name)?.type
      if let p, let q, p != q {
        if [p, q].allSatisfy({ $0 == .integer || $0 == .number }) { types.append(.number); continue }
        clash = clash ?? "column '\(name)' is \(p) in a but \(q) in b"
      }
      types.append(p ?? q!)
    }
    if let clash {
      #expect(
        KindHarness.failure { try KindHarness.table("union", [:], [.table(a), .table(b)]) } == clash, "seed \(seed)")
      return
    }
    var expected: [[Value]] = []
    for table in [a, b] {
      for row in 0..<table.rowCount {
        expected.append(
          zip(names, types).map { name, type in
            CombineTables.converted(table.column(named: name)?[row] ?? .null, to: type)
          })
      }
    }
    let union = try KindHarness.table("union", [:], [.table(a), .table(b)])
    #expect(union.columnNames == names, "seed \(seed)")
    #expect(union.columns.map(\.type) == types, "seed \(seed)")
    #expect(union.rowCount == a.rowCount + b.rowCount)
    #expect(KindHarness.rows(union) == expected, "seed \(seed)")
  }

  @Test(arguments: 0..<300)
  func distinctMatchesALinearSearchReference(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let table = try CombineTables.table([("k", .integer), ("s", .string), ("x", .number), ("b", .bool)], &random)
    let keys: [String]? =
      Bool.random(using: &random)
      ? nil : Array(["k", "s", "x", "b"].shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
    let distinct = try KindHarness.table(
      "distinct", keys.map { ["columns": .array($0.map { .string($0) })] } ?? [:],
      [.table(table)])
    // Reference: a row is kept when no earlier kept row has an equal key (null equals null).
    let positions = (keys ?? table.columnNames).map { table.columnIndex(named: $0)! }
    var seen: [[Value]] = []
    var expected: [[Value]] = []
    for row in KindHarness.rows(table) {
      let key = positions.map { row[$0] }
      if !seen.contains(key) {
        seen.append(key)
        expected.append(row)
      }
    }
    #expect(distinct.columnNames == table.columnNames)
    #expect(KindHarness.rows(distinct) == expected, "seed \(seed)")
  }
}
