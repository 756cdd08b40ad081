import FlowRuntime

// The per-row loop of `BlockSums.add` over buffer pointers.
//
// Why: written over the arrays themselves, the optimizer kept a uniqueness check (a runtime
// call, which spills the loop's doubles to the stack) on every row — twice the time of the
// former single running sum on TPC-H Q1's streamed groupBy.
//
// Invariants: the three mutable buffers are `sums`', `errors`' and `seen`'s own, borrowed
// for the duration of the loop and never escaped; every group index is checked against the
// buffers' common count (`precondition`, one compare per row) before it is used, so no access
// is out of bounds; `row(i)` reads its own (safe) arrays. The fused loop reads each column
// through the address of its slice over the rows (integers converted to an array of their
// own), borrowed in nested scopes for the loop's duration; the rows are checked once against
// the columns' counts and the groups' before the loop, whose index stays below the rows'
// count; every group is checked against the counts' (one compare per row), and each column's
// (sum, error) pair lies inside `open`, whose count is checked to be `groups × columns × 2`.

extension BlockSums {
  /// Adds, for each `i` in `rows` with a value (`row(i)` not `nil`), the value to its group's
  /// Neumaier sum in `sums`/`errors` and counts it in `seen`, in row order.
  ///
  /// - Precondition: the three arrays have the same count and every group is below it.
  @inline(__always)
  static func accumulate(
    _ rows: Range<Int>, _ sums: inout [Double], _ errors: inout [Double], _ seen: inout [Int64],
    _ row: (Int) -> (value: Double, group: Int)?
  ) {
    let count = UInt(sums.count)
    precondition(
      errors.count == sums.count && seen.count == sums.count, "Internal inconsistency: block sums of different sizes")
    sums.withUnsafeMutableBufferPointer { sums in
      errors.withUnsafeMutableBufferPointer { errors in
        seen.withUnsafeMutableBufferPointer { seen in
          for index in rows {
            guard let (value, group) = row(index) else { continue }
            precondition(UInt(bitPattern: group) < count, "Internal inconsistency: a group out of range")
            let sum = sums[group], next = sum + value
            errors[group] += NeumaierSum.error(of: sum, plus: value, giving: next)
            sums[group] = next
            seen[group] += 1
          }
        }
      }
    }
  }
}

extension BlockSums {
  /// The fused loop of `add(_:_:rows:groups:map:block:)`: for each row of `rows`, in order,
  /// each column's value added to its Neumaier sum of the row's group in `open` (the pair of
  /// column `c` of group `g` at `(g × columns + c) × 2`), and the group counted in `counts`.
  /// Integer columns are converted to doubles for `rows` first (the conversion each add would
  /// make), so the loop reads doubles only, through one pointer per column.
  ///
  /// - Precondition: the columns are numbers or integers without nulls, at least as long as
  ///   `rows`; `open` holds `counts.count × columns × 2` doubles; every group is below `counts.count`.
  static func accumulate(
    _ columns: [Column], rows: Range<Int>, groups: [Int32], map: [Int32]?, _ open: inout [Double],
    _ counts: inout [Int64]
  ) {
    let width = columns.count, groupCount = counts.count
    precondition(open.count == groupCount * width * 2, "Internal inconsistency: fused sums of another size")
    precondition(
      rows.isEmpty
        || (rows.lowerBound >= 0 && rows.upperBound <= groups.count
          && columns.allSatisfy { $0.count >= rows.upperBound && $0.nullCount == 0 }),
      "Internal inconsistency: fused sums past their columns")
    guard !rows.isEmpty else { return }
    // Each column's values over `rows` (index 0 is `rows.lowerBound`) as one array of doubles.
    let values: [ArraySlice<Double>] = columns.map { column in
      switch column.storage {
      case .number(let numbers): numbers[rows]
      case .integer(let integers): ArraySlice(integers[rows].map { Double($0) })
      case .bool, .string: preconditionFailure("Internal inconsistency: fused sums of a column that is not numbers")
      }
    }
    withPointers(values[...], []) { pointers in
      pointers.withUnsafeBufferPointer { pointers in
        open.withUnsafeMutableBufferPointer { open in
          counts.withUnsafeMutableBufferPointer { counts in
            groups[rows].withUnsafeBufferPointer { groups in
              for index in 0..<groups.count {
                var group = Int(groups[index])
                if let map { group = Int(map[group]) }
                precondition(UInt(bitPattern: group) < UInt(groupCount), "Internal inconsistency: a group out of range")
                counts[group] += 1
                var slot = group * width * 2
                for column in pointers {
                  let value = column[index]
                  let sum = open[slot], next = sum + value
                  open[slot + 1] += NeumaierSum.error(of: sum, plus: value, giving: next)
                  open[slot] = next
                  slot += 2
                }
              }
            }
          }
        }
      }
    }
  }

  /// `body` with each slice's first element's address (the slices borrowed one inside the other).
  private static func withPointers(
    _ slices: ArraySlice<ArraySlice<Double>>, _ borrowed: [UnsafePointer<Double>],
    _ body: ([UnsafePointer<Double>]) -> Void
  ) {
    guard let slice = slices.first else { return body(borrowed) }
    slice.withUnsafeBufferPointer { withPointers(slices.dropFirst(), borrowed + [$0.baseAddress!], body) }
  }
}
