import FlowRuntime

/// How cells of one column compare: numbers numerically (NaN above every number), strings by
/// Unicode scalar values (their UTF-8 bytes), false before true. Nulls are handled by callers.
enum CellOrder {
  /// A comparison of two non-null rows of `column`: negative, zero or positive.
  static func comparator(for column: Column) -> @Sendable (Int, Int) -> Int {
    switch column.storage {
    case .integer(let values): return { values[$0] < values[$1] ? -1 : (values[$0] == values[$1] ? 0 : 1) }
    case .number(let values): return { compare(values[$0], values[$1]) }
    case .bool(let values): return { values[$0] == values[$1] ? 0 : (values[$0] ? 1 : -1) }
    case .string(let strings): return { strings.compare($0, with: strings, $1) }
    }
  }

  static func compare(_ a: Double, _ b: Double) -> Int {
    if a < b { return -1 }
    if a > b { return 1 }
    if a == b { return 0 }
    return a.isNaN ? (b.isNaN ? 0 : 1) : -1
  }
}
