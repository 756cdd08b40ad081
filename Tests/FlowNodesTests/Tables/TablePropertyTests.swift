import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `sort`, `groupBy` and `join` against plain reference implementations over rows of values,
/// on hundreds of random tables with nulls, duplicates and empty tables.
@Suite struct TablePropertyTests {
  static func randomTable(_ random: inout SeededRandom, rows: Int? = nil, prefix: String = "") throws -> Table {
    let count = rows ?? Int.random(in: 0..<40, using: &random)
    func maybe<T>(_ make: () -> T) -> T? { Int.random(in: 0..<6, using: &random) == 0 ? nil : make() }
    var k: [Int64?] = [], s: [String?] = [], x: [Double?] = [], b: [Bool?] = []
    for _ in 0..<count {
      k.append(maybe { Int64.random(in: 0..<5, using: &random) })
      s.append(maybe { ["a", "B", "é", "ab", ""].randomElement(using: &random)! })
      x.append(maybe { Double(Int.random(in: -20..<20, using: &random)) / 4 })
      b.append(maybe { Bool.random(using: &random) })
    }
    return try Table([("k", .integers(k)), ("s", .strings(s)), (prefix + "x", .numbers(x)), (prefix + "b", .bools(b))])
  }

  /// Orders two non-null cells of one column.
  static func less(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case (.string(let p), .string(let q)):
      return Array(p.unicodeScalars.map(\.value)).lexicographicallyPrecedes(q.unicodeScalars.map(\.value))
    case (.bool(let p), .bool(let q)): return !p && q
    default: return a.numberValue! < b.numberValue!
    }
  }

  @Test(arguments: 0..<300)
  func sortMatchesAStableReference(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let table = try Self.randomTable(&random)
    let keys = (0..<Int.random(in: 1...3, using: &random)).map { _ in
      (["k", "s", "x", "b"].randomElement(using: &random)!, Bool.random(using: &random))
    }
    let sorted = try KindHarness.table(
      "sort", ["by": .array(keys.map { .string(($0.1 ? "-" : "") + $0.0) })], [.table(table)])
    // Reference: insertion sort (stable) over rows.
    var rows = KindHarness.rows(table)
    let positions = keys.map { (table.columnIndex(named: $0.0)!, $0.1) }
    func before(_ a: [Value], _ b: [Value]) -> Bool {
      for (column, descending) in positions {
        let p = a[column], q = b[column]
        if p.isNull && q.isNull { continue }
        if p.isNull || q.isNull { return q.isNull }
        if Self.less(p, q) { return !descending }
        if Self.less(q, p) { return descending }
      }
      return false
    }
    for i in 1..<max(1, rows.count) {
      var j = i
      while j > 0 && before(rows[j], rows[j - 1]) { rows.swapAt(j, j - 1); j -= 1 }
    }
    #expect(KindHarness.rows(sorted) == rows, "seed \(seed)")
  }

  @Test(arguments: 0..<300)
  func groupByMatchesAReference(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let table = try Self.randomTable(&random)
    let keys = Array(["k", "s", "b"].shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
    let aggregates: [(String, String, String?)] = [
      ("n", "count", nil), ("sk", "sum", "k"), ("mx", "mean", "x"),
      ("lo", "min", "s"), ("hi", "max", "x"), ("f", "first", "b"), ("l", "last", "s"), ("d", "countDistinct", "s")
    ]
    let spec = JSONObject(aggregates.map { JSONMember(key: $0.0, value: .string("\($0.1)(\($0.2 ?? ""))")) })
    let grouped = try KindHarness.table(
      "groupBy", ["by": .array(keys.map { .string($0) }), "aggregate": .object(spec)], [.table(table)])
    // Reference: groups by linear search, in order of first appearance.
    let rows = KindHarness.rows(table)
    let keyColumns = keys.map { table.columnIndex(named: $0)! }
    var groupKeys: [[Value]] = keys.isEmpty ? [[]] : []
    var members: [[[Value]]] = keys.isEmpty ? [rows] : []
    if !keys.isEmpty {
      for row in rows {
        let key = keyColumns.map { row[$0] }
        if let index = groupKeys.firstIndex(of: key) {
          members[index].append(row)
        } else {
          groupKeys.append(key)
          members.append([row])
        }
      }
    }
    var expected: [[Value]] = []
    for (key, group) in zip(groupKeys, members) {
      var line = key
      for (_, function, column) in aggregates {
        guard let column else { line.append(.integer(Int64(group.count))); continue }
        let values = group.map { $0[table.columnIndex(named: column)!] }.filter { !$0.isNull }
        if values.isEmpty { line.append(.null); continue }
        switch function {
        case "sum": line.append(.integer(values.reduce(0) { $0 + $1.integerValue! }))
        case "mean": line.append(.number(values.reduce(0) { $0 + $1.numberValue! } / Double(values.count)))
        case "min": line.append(values.dropFirst().reduce(values[0]) { Self.less($1, $0) ? $1 : $0 })
        case "max": line.append(values.dropFirst().reduce(values[0]) { Self.less($0, $1) ? $1 : $0 })
        case "first": line.append(values[0])
        case "last": line.append(values[values.count - 1])
        default: line.append(.integer(Int64(Set(values).count)))
        }
      }
      expected.append(line)
    }
    #expect(grouped.columnNames == keys + aggregates.map(\.0))
    #expect(KindHarness.rows(grouped) == expected, "seed \(seed)")
  }

  @Test(arguments: 0..<300)
  func joinMatchesANestedLoopReference(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let left = try Self.randomTable(&random)
    let right = try Self.randomTable(&random, prefix: Bool.random(using: &random) ? "r" : "")
    let keys = Array(["k", "s"].shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)))
    let outer = Bool.random(using: &random)
    let joined = try KindHarness.table(
      "join", ["on": .array(keys.map { .string($0) }), "how": outer ? "left" : "inner"],
      [.table(left), .table(right)])
    let leftKeys = keys.map { left.columnIndex(named: $0)! }, rightKeys = keys.map { right.columnIndex(named: $0)! }
    let rightRest = right.columnNames.indices.filter { !keys.contains(right.columnNames[$0]) }
    var expected: [[Value]] = []
    for row in KindHarness.rows(left) {
      var matched = false
      for other in KindHarness.rows(right) {
        let equal = zip(leftKeys, rightKeys).allSatisfy { !row[$0].isNull && row[$0] == other[$1] }
        if equal {
          matched = true
          expected.append(row + rightRest.map { other[$0] })
        }
      }
      if !matched && outer { expected.append(row + rightRest.map { _ in .null }) }
    }
    let names =
      left.columnNames
      + rightRest.map {
        left.columnNames.contains(right.columnNames[$0]) ? right.columnNames[$0] + "_right" : right.columnNames[$0]
      }
    #expect(joined.columnNames == names)
    #expect(KindHarness.rows(joined) == expected, "seed \(seed)")
  }
}
