import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `pivot` (every aggregate) and `unpivot` against loops over rows of values, on seeded random
/// tables with nulls, repeated keys and integer/number mixes.
@Suite struct PivotUnpivotPropertyTests {
  static func table(_ random: inout SeededRandom) throws -> Table {
    let rows = Int.random(in: 0...30, using: &random)
    func maybe<T>(_ make: () -> T) -> T? { Int.random(in: 0..<5, using: &random) == 0 ? nil : make() }
    return try Table([
      (name: "p", column: .integers((0..<rows).map { _ in maybe { Int64.random(in: 0..<3, using: &random) } })),
      (name: "q", column: .strings((0..<rows).map { _ in maybe { ["a", "é", "B"].randomElement(using: &random)! } })),
      (name: "c", column: .integers((0..<rows).map { _ in maybe { [1, 2, 10, -3].randomElement(using: &random)! } })),
      (
        name: "t",
        column: .strings((0..<rows).map { _ in maybe { ["x", "Y", "ab", "é"].randomElement(using: &random)! } })
      ),
      (name: "i", column: .integers((0..<rows).map { _ in maybe { Int64.random(in: -9...9, using: &random) } })),
      (
        name: "x",
        column: .numbers((0..<rows).map { _ in maybe { Double(Int.random(in: -32...32, using: &random)) / 4 } })
      ),
      (name: "s", column: .strings((0..<rows).map { _ in maybe { ["", "a", "b"].randomElement(using: &random)! } }))
    ])
  }

  @Test(arguments: 0..<300)
  func pivotMatchesAReferenceLoop(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let table = try Self.table(&random)
    let index = Array(["p", "q"].shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
    let pivoted = ["c", "t"].randomElement(using: &random)!
    let aggregate = PivotNode.aggregates.randomElement(using: &random)!
    let numeric = ["sum", "mean"].contains(aggregate)
    let values = (numeric ? ["i", "x"] : ["i", "x", "s"]).randomElement(using: &random)!
    let output = try KindHarness.table(
      "pivot",
      [
        "index": .array(index.map { .string($0) }), "columns": .string(pivoted), "values": .string(values),
        "aggregate": .string(aggregate)
      ], [.table(table)])
    // Reference.
    let rows = KindHarness.rows(table)
    let keyAt = index.map { table.columnIndex(named: $0)! }
    let pivotAt = table.columnIndex(named: pivoted)!, valueAt = table.columnIndex(named: values)!
    var keys: [[Value]] = index.isEmpty ? [[]] : []
    for row in rows where !keys.contains(keyAt.map { row[$0] }) { keys.append(keyAt.map { row[$0] }) }
    let names = Array(Set(rows.map { $0[pivotAt] }.filter { !$0.isNull }.map(\.text)))
      .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    var expected: [[Value]] = []
    for key in keys {
      var line = key
      for name in names {
        let cells = rows.filter { line in
          keyAt.map { line[$0] } == key && !line[pivotAt].isNull && line[pivotAt].text == name
        }
        .map { $0[valueAt] }.filter { !$0.isNull }
        switch aggregate {
        case "count": line.append(.integer(Int64(cells.count)))
        case "first": line.append(cells.first ?? .null)
        case "last": line.append(cells.last ?? .null)
        case "min", "max":
          var best: Value = .null
          for cell in cells
          where best.isNull
            || (aggregate == "min"
              ? WindowReference.compare(cell, best) < 0
              : WindowReference.compare(cell, best) > 0)
          { best = cell }
          line.append(best)
        default:
          if cells.isEmpty { line.append(.null); break }
          if aggregate == "sum", case .integer = cells[0] {
            line.append(.integer(cells.reduce(0) { $0 + $1.integerValue! })); break
          }
          let total = cells.reduce(0.0) { $0 + $1.numberValue! }
          line.append(.number(aggregate == "mean" ? total / Double(cells.count) : total))
        }
      }
      expected.append(line)
    }
    #expect(output.columnNames == index + names, "seed \(seed)")
    #expect(KindHarness.rows(output) == expected, "seed \(seed): \(aggregate) of \(values) by \(index) × \(pivoted)")
  }

  @Test(arguments: 0..<300)
  func unpivotMatchesAReferenceLoop(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let table = try Self.table(&random)
    let keep = Array(["p", "q"].shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
    let listed: [String]? =
      Bool.random(using: &random)
      ? nil : Array(["c", "i", "x"].shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)))
    var params: JSONObject = ["keep": .array(keep.map { .string($0) }), "names": "variable"]
    if let listed { params["columns"] = .array(listed.map { .string($0) }) }
    let columns = listed ?? table.columnNames.filter { !keep.contains($0) }
    let types = Set(columns.map { table.column(named: $0)!.type })
    if types.count > 1 && !types.isSubset(of: [.integer, .number]) {
      let failure = KindHarness.failure { try KindHarness.table("unpivot", params, [.table(table)]) }
      #expect(failure?.hasPrefix("columns: '") == true, "seed \(seed): \(failure ?? "no failure")")
      return
    }
    let output = try KindHarness.table("unpivot", params, [.table(table)])
    var expected: [[Value]] = []
    for row in KindHarness.rows(table).indices {
      for name in columns {
        var cell = table.column(named: name)![row]
        if types.count > 1, case .integer(let n) = cell { cell = .number(Double(n)) }
        expected.append(keep.map { table.column(named: $0)![row] } + [.string(name), cell])
      }
    }
    #expect(output.columnNames == keep + ["variable", "value"], "seed \(seed)")
    #expect(KindHarness.rows(output) == expected, "seed \(seed)")
  }

  @Test func pivotNamesTheColumnLimitAndBadParams() throws {
    let rows = PivotNode.maxNewColumns + 1
    let wide = try Table([
      (name: "k", column: .integers((0..<rows).map { Int64($0) })),
      (name: "v", column: .integers([Int64?](repeating: 1, count: rows)))
    ])
    let failure = KindHarness.failure {
      try KindHarness.table("pivot", ["columns": "k", "values": "v"], [.table(wide)])
    }
    #expect(
      failure
        == "columns: column 'k' has 10001 distinct values, more than the limit of 10000 new columns a pivot may add")
    let aggregate = KindHarness.failure {
      try KindHarness.table("pivot", ["columns": "k", "values": "v", "aggregate": "summ"], [])
    }
    #expect(aggregate?.contains("unknown aggregate \\'summ\\' (did you mean \\'sum\\'?)") == true, "\(aggregate ?? "")")
    let missing = KindHarness.failure {
      try KindHarness.table("pivot", ["columns": "kk", "values": "v"], [.table(wide)])
    }
    #expect(missing?.hasPrefix("columns: no column 'kk'") == true, "\(missing ?? "")")
    let text = try Table([(name: "k", column: .strings(["a"])), (name: "v", column: .strings(["x"]))])
    let sum = KindHarness.failure {
      try KindHarness.table("pivot", ["columns": "k", "values": "v", "aggregate": "sum"], [.table(text)])
    }
    #expect(sum == "values: sum(v) needs numbers, but the column is string")
  }
}
