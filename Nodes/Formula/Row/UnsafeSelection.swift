/// `filter`'s selection vector from a `bool` result, or straight from a test per row (a column
/// compared with a literal): the rows that are true, written without a branch per row (each
/// row's index is stored, and the count moves on only where it is kept).
///
/// Invariants: `keep` (and `valid`, when given) hold at least `count` flags (a precondition);
/// `rows(count:offset:_:)` (which `trueRows` uses) asks its test for rows below `count` only, and `rows(codes:holds:)`
/// reads its padded flags at a code masked below their count (a power of two);
/// the result is allocated at `count` elements and the store for row `r` goes to index
/// `n ≤ r < count` (`n` counts the rows kept before it), so every store is inside the
/// allocation; the result's count is the rows kept, each element below it stored last by the
/// row it holds.
enum UnsafeSelection {
  /// `offset + row` for each row below `count` where `keep[row]` (and `valid[row]`) is true;
  /// its capacity about twice its count at most (a selective filter's rows are copied out of the
  /// allocation for every row).
  static func trueRows(_ keep: [Bool], valid: [Bool]?, offset: Int, count: Int) -> [Int32] {
    precondition(count >= 0 && keep.count >= count && (valid?.count ?? count) >= count, "a selection past its flags")
    return keep.withUnsafeBufferPointer { keep in
      guard let valid else { return rows(count: count, offset: offset) { keep[$0] } }
      return valid.withUnsafeBufferPointer { valid in rows(count: count, offset: offset) { keep[$0] && valid[$0] } }
    }
  }

  /// `offset + row` for each row below `count` for which `keeps(row)` is true.
  @inline(__always)
  static func rows(count: Int, offset: Int = 0, _ keeps: (Int) -> Bool) -> [Int32] {
    precondition(count >= 0, "a selection past its rows")
    guard count > 0 else { return [] }
    let rows = [Int32](unsafeUninitializedCapacity: count) { target, initialized in
      let base = target.baseAddress!
      var kept = 0
      for row in 0..<count {
        (base + kept).initialize(to: Int32(truncatingIfNeeded: offset &+ row))
        kept &+= keeps(row) ? 1 : 0
      }
      initialized = kept
    }
    return trimmed(rows, count: count)
  }

  /// Each row whose code's entry holds (`holds[codes[row]]`): a dictionary column compared
  /// once per entry. The flags are padded with `false` to a power of two and each code is
  /// masked into them, so no read passes them whatever a code holds (a dictionary column's
  /// codes are all below its entries, so the mask changes none).
  static func rows(codes: [UInt32], holds: [Bool]) -> [Int32] {
    var size = 1
    while size < holds.count { size <<= 1 }
    var table = [UInt8](repeating: 0, count: size)
    for (entry, flag) in holds.enumerated() where flag { table[entry] = 1 }
    let mask = size - 1
    return codes.withUnsafeBufferPointer { codes in
      table.withUnsafeBufferPointer { table in
        rows(count: codes.count) { table[Int(codes[$0]) & mask] != 0 }
      }
    }
  }

  /// `rows`, copied out of its allocation of `count` when it keeps fewer than half of them.
  private static func trimmed(_ rows: [Int32], count: Int) -> [Int32] {
    rows.count >= count / 2 ? rows : rows.withUnsafeBufferPointer { Array($0) }
  }
}
