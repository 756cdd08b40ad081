import FlowGraph
import FlowTestSupport
@testable import FlowNodes
@testable import FlowRuntime

/// A plain reference for `window`: each row's partition found by comparing keys with every
/// row, sorted with the standard library's stable sort, and each function as a loop over the
/// partition (the values are multiples of 1/4, so every sum is exact in any order).
enum WindowReference {
  /// Cell order for the reference sort: numbers numerically, strings by Unicode scalars.
  static func compare(_ a: Value, _ b: Value) -> Int {
    switch (a, b) {
    case (.integer(let x), .integer(let y)): return x < y ? -1 : (x == y ? 0 : 1)
    case (.number(let x), .number(let y)): return x < y ? -1 : (x == y ? 0 : 1)
    case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
    case (.string(let x), .string(let y)):
      let p = x.unicodeScalars.map(\.value), q = y.unicodeScalars.map(\.value)
      return p.lexicographicallyPrecedes(q) ? -1 : (p == q ? 0 : 1)
    default: return 0
    }
  }

  /// The rows of each row's partition, in `orderBy` order (stable; nulls last).
  static func partitions(_ table: Table, by partitionBy: [String], order orderBy: [(String, Bool)]) -> [[Int]] {
    let rows = KindHarness.rows(table)
    let keys = partitionBy.map { table.columnIndex(named: $0)! }
    let sortKeys = orderBy.map { (table.columnIndex(named: $0.0)!, $0.1) }
    var groups: [[Int]] = []
    var groupKeys: [[Value]] = []
    for row in rows.indices {
      let key = keys.map { rows[row][$0] }
      if let index = groupKeys.firstIndex(of: key) {
        groups[index].append(row)
      } else {
        groupKeys.append(key)
        groups.append([row])
      }
    }
    return groups.map { group in
      group.sorted { a, b in
        for (column, descending) in sortKeys {
          let x = rows[a][column], y = rows[b][column]
          if x.isNull || y.isNull {
            if x.isNull && y.isNull { continue }
            return y.isNull
          }
          let order = compare(x, y)
          if order != 0 { return descending ? order > 0 : order < 0 }
        }
        return false
      }
    }
  }

  /// The function `name` (with `column`, `n`, `fallback`) at position `k` of `part`.
  static func value(
    _ name: String, column: String?, n: Int, fallback: Value, at k: Int, of part: [Int],
    table: Table, orderBy: [(String, Bool)]
  ) -> Value {
    let cells = column.map { name in part.map { table.column(named: name)![$0] } } ?? []
    let peerKey = { (position: Int) in orderBy.map { table.column(named: $0.0)![part[position]] } }
    func nonNull(_ range: ClosedRange<Int>) -> [Value] { range.map { cells[$0] }.filter { !$0.isNull } }
    func sum(_ values: [Value], mean: Bool) -> Value {
      if values.isEmpty { return .null }
      if !mean, values.allSatisfy({ if case .integer = $0 { true } else { false } }) {
        return .integer(values.reduce(0) { $0 + $1.integerValue! })
      }
      if !mean, values.allSatisfy({ if case .bool = $0 { true } else { false } }) {
        return .integer(Int64(values.filter { $0 == .bool(true) }.count))
      }
      let total = values.reduce(0.0) { $0 + ($1.numberValue ?? ($1 == .bool(true) ? 1 : 0)) }
      return .number(mean ? total / Double(values.count) : total)
    }
    func extreme(_ values: [Value], max: Bool) -> Value {
      var best: Value = .null
      for value in values where best.isNull || (max ? compare(value, best) > 0 : compare(value, best) < 0) {
        best = value
      }
      return best
    }
    var all: [Value] { nonNull(0...(part.count - 1)) }
    var window: [Value] { nonNull(Swift.max(0, k - n + 1)...k) }
    switch name {
    case "rowNumber", "cumcount": return .integer(Int64(k + 1))
    case "rank": return .integer(Int64((0...k).first { peerKey($0) == peerKey(k) }! + 1))
    case "denseRank":
      var groups: [[Value]] = []
      for position in 0...k where groups.last != peerKey(position) { groups.append(peerKey(position)) }
      return .integer(Int64(groups.count))
    case "lag": return k - n >= 0 ? cells[k - n] : fallback
    case "lead": return k + n < part.count ? cells[k + n] : fallback
    case "cumsum": return sum(nonNull(0...k), mean: false)
    case "cummean": return sum(nonNull(0...k), mean: true)
    case "cummin": return extreme(nonNull(0...k), max: false)
    case "cummax": return extreme(nonNull(0...k), max: true)
    case "rollingSum": return sum(window, mean: false)
    case "rollingMean": return sum(window, mean: true)
    case "rollingMin": return extreme(window, max: false)
    case "rollingMax": return extreme(window, max: true)
    case "sum": return sum(all, mean: false)
    case "mean": return sum(all, mean: true)
    case "min": return extreme(all, max: false)
    case "max": return extreme(all, max: true)
    case "count": return .integer(Int64(column == nil ? part.count : all.count))
    case "first": return all.first ?? .null
    case "last": return all.last ?? .null
    default: fatalError("no reference for \(name)")
    }
  }
}
