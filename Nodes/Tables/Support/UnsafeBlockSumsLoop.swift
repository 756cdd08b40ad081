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
// is out of bounds; `row(i)` reads its own (safe) arrays. The fused loop's value buffers are
// the columns' own arrays, borrowed in nested scopes for the loop's duration; every row is
// checked once against their counts and the groups' before the loop, every group against the
// counts' (one compare per row), and each column's (sum, error) pair lies inside `open`, whose
// count is checked to be `groups × columns × 2`.

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
  /// A column's values as the fused loop reads them.
  private enum Values {
    case numbers(UnsafeBufferPointer<Double>)
    case integers(UnsafeBufferPointer<Int64>)
  }

  /// The fused loop of `add(_:_:rows:groups:map:block:)`: for each row of `rows`, in order,
  /// each column's value added to its Neumaier sum of the row's group in `open` (the pair of
  /// column `c` of group `g` at `(g × columns + c) × 2`), and the group counted in `counts`.
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
    withValues(columns[...], []) { values in
      open.withUnsafeMutableBufferPointer { open in
        counts.withUnsafeMutableBufferPointer { counts in
          groups.withUnsafeBufferPointer { groups in
            for row in rows {
              var group = Int(groups[row])
              if let map { group = Int(map[group]) }
              precondition(UInt(bitPattern: group) < UInt(groupCount), "Internal inconsistency: a group out of range")
              counts[group] += 1
              var slot = group * width * 2
              for column in values {
                let value: Double
                switch column {
                case .numbers(let numbers): value = numbers[row]
                case .integers(let integers): value = Double(integers[row])
                }
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

  /// `body` with the columns' value buffers (borrowed one inside the other).
  private static func withValues(_ columns: ArraySlice<Column>, _ borrowed: [Values], _ body: ([Values]) -> Void) {
    guard let column = columns.first else { return body(borrowed) }
    switch column.storage {
    case .number(let numbers):
      numbers.withUnsafeBufferPointer { withValues(columns.dropFirst(), borrowed + [.numbers($0)], body) }
    case .integer(let integers):
      integers.withUnsafeBufferPointer { withValues(columns.dropFirst(), borrowed + [.integers($0)], body) }
    case .bool, .string:
      preconditionFailure("Internal inconsistency: fused sums of a column that is not numbers")
    }
  }
}
