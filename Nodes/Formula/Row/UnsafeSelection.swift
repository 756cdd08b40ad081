/// `filter`'s selection vector from a `bool` result: the rows that are true, written without a
/// branch per row (each row's index is stored, and the count moves on only where it is kept).
///
/// Invariants: `keep` (and `valid`, when given) hold at least `count` flags (a precondition);
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
    guard count > 0 else { return [] }
    let rows = keep.withUnsafeBufferPointer { keep in
      [Int32](unsafeUninitializedCapacity: count) { target, initialized in
        let base = target.baseAddress!
        var kept = 0
        if let valid {
          valid.withUnsafeBufferPointer { valid in
            for row in 0..<count {
              (base + kept).initialize(to: Int32(truncatingIfNeeded: offset &+ row))
              kept &+= keep[row] && valid[row] ? 1 : 0
            }
          }
        } else {
          for row in 0..<count {
            (base + kept).initialize(to: Int32(truncatingIfNeeded: offset &+ row))
            kept &+= keep[row] ? 1 : 0
          }
        }
        initialized = kept
      }
    }
    return rows.count >= count / 2 ? rows : rows.withUnsafeBufferPointer { Array($0) }
  }
}
