/// The gather of `Column.gathering` and of a dictionary column's codes when every row is in
/// range: `values[rows[i]]` for each `i`, over buffer pointers (the checked `map` it replaces
/// tested each row twice, for -1 and for the bounds).
///
/// Invariants: every row is checked to lie in `0..<bound` in one pass before any is read (an
/// unsigned compare: a negative row is out of range; `Rows` is made only so), and `values`
/// has at least `bound` elements (a precondition), so every read is inside `values`; the
/// result is allocated at `rows.count` and each of its elements is written exactly once
/// before the array is returned.
enum UnsafeRowGather {
  /// Whether every row lies in `0..<count`.
  static func allInRange(_ rows: [Int32], count: Int) -> Bool {
    guard count <= Int(UInt32.max) else { return rows.allSatisfy { $0 >= 0 } }
    // The largest row as unsigned (a negative row is above every count): a loop the
    // compiler vectorizes.
    let largest = rows.withUnsafeBufferPointer { rows in
      var largest: UInt32 = 0
      for row in rows { largest = Swift.max(largest, UInt32(bitPattern: row)) }
      return largest
    }
    return rows.isEmpty || Int(largest) < count
  }

  /// Rows checked, every one in one pass, to lie in `0..<bound`: a table's selection checked
  /// once for all its columns (each of `bound` cells).
  struct Rows {
    let rows: [Int32]
    let bound: Int

    /// `rows` if every one lies in `0..<bound`, else `nil`.
    init?(_ rows: [Int32], below bound: Int) {
      guard UnsafeRowGather.allInRange(rows, count: bound) else { return nil }
      self.rows = rows
      self.bound = bound
    }
  }

  /// `values[rows[i]]` for each `i`, or `nil` when a row lies outside `values`.
  static func gathering<T>(_ values: [T], _ rows: [Int32]) -> [T]? {
    Rows(rows, below: values.count).map { gathering(values, $0) }
  }

  /// `values[rows[i]]` for each `i`.
  ///
  /// - Precondition: `values` has at least `rows.bound` elements (checked).
  static func gathering<T>(_ values: [T], _ rows: Rows) -> [T] {
    precondition(values.count >= rows.bound, "Internal inconsistency: rows checked for another column")
    // No rows: the empty array itself (an uninitialized one of capacity 0 would write its count
    // into the shared empty storage, a race ThreadSanitizer reports).
    guard !rows.rows.isEmpty else { return [] }
    return values.withUnsafeBufferPointer { source in
      rows.rows.withUnsafeBufferPointer { rows in
        [T](unsafeUninitializedCapacity: rows.count) { target, initialized in
          for (index, row) in rows.enumerated() {
            (target.baseAddress! + index).initialize(to: source[Int(row)])
          }
          initialized = rows.count
        }
      }
    }
  }
}
