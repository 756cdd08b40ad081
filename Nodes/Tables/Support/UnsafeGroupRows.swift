/// The stable counting sort of `GroupRows`: the rows of each group in increasing order, group
/// after group.
///
/// The rows are cut into four runs of consecutive rows, counted and placed side by side (one
/// step of each run per iteration, each run with its own counts and its own next position
/// per group). Rows of one group mostly follow one another, and a single run's count or
/// position would make a trip through memory per row, each waiting for the last.
///
/// Invariants: every code is checked to lie in `0..<groupCount` (and every selected row in
/// `0..<codes.count`) in one pass before any is used as an index; the counts of run `r` are at
/// `r × groupCount + code`, inside their allocation of `4 × groupCount`; run `r`'s next
/// position for a group starts at the group's start plus the rows of the group in earlier
/// runs, and moves on once per row of the group in run `r`, so it stays below the next run's
/// (or group's) start: every store to the result is inside its allocation of one element per
/// row, and each element is stored exactly once before the array is returned. `sum` reads
/// `values` at listed rows only, each below the morsel's count, which its caller checks
/// `values` to hold.
enum UnsafeGroupRows {
  static func sort(codes: [Int32], groupCount: Int, selection: [Int32]?) -> (starts: [Int], rows: [Int32]) {
    let count = selection?.count ?? codes.count
    precondition(groupCount >= 0, "Internal inconsistency: a negative count of groups")
    precondition(
      codes.isEmpty || Int(largest(codes)) < groupCount, "Internal inconsistency: a group code out of range")
    if let selection {
      precondition(
        selection.isEmpty || Int(largest(selection)) < codes.count,
        "Internal inconsistency: a selected row out of range")
    }
    var starts = [Int](repeating: 0, count: groupCount + 1)
    guard count > 0 else { return (starts, []) }
    let runs = 4, length = count / runs
    // Run r holds positions r × length ..< (r + 1) × length; the last run also the rest.
    var next = [Int](repeating: 0, count: runs * groupCount)
    let rows = codes.withUnsafeBufferPointer { codes in
      withSelection(selection) { selected in
        @inline(__always) func row(_ position: Int) -> Int { selected.map { Int($0[position]) } ?? position }
        next.withUnsafeMutableBufferPointer { next in
          for step in 0..<length {
            for run in 0..<runs { next[run * groupCount + Int(codes[row(run * length + step)])] &+= 1 }
          }
          for position in (runs * length)..<count { next[(runs - 1) * groupCount + Int(codes[row(position)])] &+= 1 }
          // Counts to positions: group by group, run by run.
          var position = 0
          for group in 0..<groupCount {
            starts[group] = position
            for run in 0..<runs {
              let rowsOfRun = next[run * groupCount + group]
              next[run * groupCount + group] = position
              position += rowsOfRun
            }
          }
          starts[groupCount] = position
        }
        return [Int32](unsafeUninitializedCapacity: count) { target, initialized in
          let base = target.baseAddress!
          next.withUnsafeMutableBufferPointer { next in
            for step in 0..<length {
              for run in 0..<runs {
                let tableRow = row(run * length + step)
                let slot = run * groupCount + Int(codes[tableRow])
                (base + next[slot]).initialize(to: Int32(truncatingIfNeeded: tableRow))
                next[slot] &+= 1
              }
            }
            for position in (runs * length)..<count {
              let tableRow = row(position)
              let slot = (runs - 1) * groupCount + Int(codes[tableRow])
              (base + next[slot]).initialize(to: Int32(truncatingIfNeeded: tableRow))
              next[slot] &+= 1
            }
          }
          initialized = count
        }
      }
    }
    return (starts, rows)
  }

  /// `GroupRows.sum(of:at:)` over buffers: the caller checked that `values` holds every row
  /// `GroupRows` lists (each below its morsel's count, `sort`'s result).
  static func sum(_ values: [Int64], _ rows: ArraySlice<Int32>) -> (sum: Int64, carries: Int64) {
    values.withUnsafeBufferPointer { values in
      rows.withUnsafeBufferPointer { rows in
        var sum: Int64 = 0, carries: Int64 = 0
        for row in rows {
          let value = values[Int(row)]
          let (next, overflow) = sum.addingReportingOverflow(value)
          sum = next
          if overflow { carries &+= value < 0 ? -1 : 1 }
        }
        return (sum, carries)
      }
    }
  }

  /// The largest value as unsigned (a negative one is above every count): a loop the compiler
  /// vectorizes.
  private static func largest(_ values: [Int32]) -> UInt32 {
    values.withUnsafeBufferPointer { values in
      var largest: UInt32 = 0
      for value in values { largest = max(largest, UInt32(bitPattern: value)) }
      return largest
    }
  }

  /// `body` with the selection's buffer (`nil` when there is none).
  private static func withSelection<R>(_ selection: [Int32]?, _ body: (UnsafeBufferPointer<Int32>?) -> R) -> R {
    guard let selection else { return body(nil) }
    return selection.withUnsafeBufferPointer { body($0) }
  }
}
