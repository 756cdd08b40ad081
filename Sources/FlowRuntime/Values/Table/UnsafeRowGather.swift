/// The gather of `Column.gathering` and of a dictionary column's codes when every row is in
/// range: `values[rows[i]]` for each `i`, over buffer pointers (the checked `map` it replaces
/// tested each row twice, for -1 and for the bounds).
///
/// Invariants: every row is checked to lie in `0..<values.count` in one pass before any is
/// read (an unsigned compare: a negative row is out of range), so every read is inside
/// `values`; the result is allocated at `rows.count` and each of its elements is written
/// exactly once before the array is returned.
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

  /// `values[rows[i]]` for each `i`, or `nil` when a row lies outside `values`.
  static func gathering<T>(_ values: [T], _ rows: [Int32]) -> [T]? {
    guard allInRange(rows, count: values.count) else { return nil }
    // No rows: the empty array itself (an uninitialized one of capacity 0 would write its count
    // into the shared empty storage, a race ThreadSanitizer reports).
    guard !rows.isEmpty else { return [] }
    return values.withUnsafeBufferPointer { source in
      rows.withUnsafeBufferPointer { rows in
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
