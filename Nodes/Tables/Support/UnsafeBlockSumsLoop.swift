// The per-row loop of `BlockSums.add` over buffer pointers.
//
// Why: written over the arrays themselves, the optimizer kept a uniqueness check (a runtime
// call, which spills the loop's doubles to the stack) on every row — twice the time of the
// former single running sum on TPC-H Q1's streamed groupBy.
//
// Invariants: the three mutable buffers are `sums`', `errors`' and `seen`'s own, borrowed
// for the duration of the loop and never escaped; every group index is checked against the
// buffers' common count (`precondition`, one compare per row) before it is used, so no access
// is out of bounds; `row(i)` reads its own (safe) arrays.

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
