import FlowRuntime

/// `sort`'s keys as one `UInt64` per row each, whose unsigned order is the cell order of
/// `CellOrder` (descending keys inverted), so the sort compares integers instead of cells:
/// integers with the sign bit flipped; numbers by their bit pattern made monotonic (-0 as 0,
/// every NaN as one NaN above +inf); false before true; strings by the rank of their distinct
/// value among the column's distinct values (ranked once, by Unicode scalars). Null cells are
/// flagged apart and go last in either direction.
///
/// Invariants: `values[k].count` is the row count; `nulls[k]` is `nil` when key `k` has no null.
struct SortKeys: Sendable {
  let values: [[UInt64]]
  let nulls: [[Bool]?]

  /// The keys of `columns` (each `descending` or not), extracted per column (one per thread
  /// for several keys).
  init(_ columns: [(column: Column, descending: Bool)], morsels: TableMorsels) {
    let keys = morsels.mapColumns(columns.count, rows: columns.first?.column.count ?? 0) { index in
      let (column, descending) = columns[index]
      let keys = Self.keys(of: column)
      return (descending ? keys.map { ~$0 } : keys, column.nullCount == 0 ? nil : (0..<column.count).map(column.isNull))
    }
    values = keys.map(\.0)
    nulls = keys.map(\.1)
  }

  /// Whether row `x` goes before row `y`: by each key in turn, nulls last, ties by row.
  @inline(__always)
  func less(_ x: Int32, _ y: Int32) -> Bool {
    let a = Int(x), b = Int(y)
    for key in values.indices {
      if let nulls = nulls[key] {
        let aNull = nulls[a], bNull = nulls[b]
        if aNull || bNull {
          if aNull == bNull { continue }
          return bNull
        }
      }
      let p = values[key][a], q = values[key][b]
      if p != q { return p < q }
    }
    return x < y
  }

  /// One order-preserving key per cell (anything for a null cell).
  static func keys(of column: Column) -> [UInt64] {
    switch column.storage {
    case .integer(let values): return values.map { UInt64(bitPattern: $0) ^ (1 << 63) }
    case .number(let values): return values.map(numberKey)
    case .bool(let values): return values.map { $0 ? 1 : 0 }
    case .string(let strings): return ranks(strings, column)
    }
  }

  /// A double's bits made monotonic: negative numbers inverted, the rest with the sign bit set.
  static func numberKey(_ value: Double) -> UInt64 {
    let bits = ColumnCodes.normalized(value)
    return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
  }

  /// Each string's rank among the column's distinct strings (equal bytes, equal rank).
  private static func ranks(_ strings: StringColumn, _ column: Column) -> [UInt64] {
    if let dictionary = strings.dictionary, let codes = strings.codes {
      // The dictionary's entries are distinct: ranked once, each row its entry's rank.
      let order = (0..<dictionary.count).sorted { dictionary.compare($0, with: dictionary, $1) < 0 }
      var rank = [UInt64](repeating: 0, count: dictionary.count)
      for (position, entry) in order.enumerated() { rank[entry] = UInt64(position) }
      return codes.map { rank[Int($0)] }
    }
    let (codes, cardinality) = ColumnCodes.codes(of: column)
    // A representative row of each code (a null's code keeps -1: it never ranks a value).
    var representative = [Int](repeating: -1, count: cardinality)
    for row in codes.indices where representative[Int(codes[row])] < 0 && !column.isNull(row) {
      representative[Int(codes[row])] = row
    }
    let order = (0..<cardinality).filter { representative[$0] >= 0 }.sorted {
      strings.compare(representative[$0], with: strings, representative[$1]) < 0
    }
    var rank = [UInt64](repeating: 0, count: cardinality)
    for (position, code) in order.enumerated() { rank[code] = UInt64(position) }
    return codes.map { rank[Int($0)] }
  }
}
