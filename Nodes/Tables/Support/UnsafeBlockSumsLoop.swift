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
// The paired loop reads two columns per step (an odd last column twice) through the same
// borrowed pointers, its state arrays hold `groups × pairs` vectors and each slot is
// `group × pairs + pair` with the group checked as above.

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
    if accumulatePairs(values, groups: groups[rows], map: map, &open, &counts) { return }
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

  /// The fused loop two columns at a time: each pair's sums of a group as one vector, each
  /// addition's error by the branch-free two-sum (six operations, no compare), which is the
  /// exact error — the one `NeumaierSum.error` gives — unless one of its steps overflows. Such an
  /// overflow leaves a non-finite error beside a sum that may still be finite, so the sums are
  /// written to `open` and `counts` only when every finite sum has a finite error; otherwise
  /// nothing changes and the result is `false` (the caller then runs the one-column loop).
  /// A finite sum was finite after every addition (a non-finite sum stays so), and its errors
  /// were then exact and finite in both forms, so the bits are those of the one-column loop.
  private static func accumulatePairs(
    _ values: [ArraySlice<Double>], groups: ArraySlice<Int32>, map: [Int32]?, _ open: inout [Double],
    _ counts: inout [Int64]
  ) -> Bool {
    let width = values.count, pairs = (width + 1) / 2, groupCount = counts.count
    var sums = [SIMD2<Double>](repeating: .zero, count: groupCount * pairs)
    var errors = sums
    for group in 0..<groupCount {
      for column in 0..<width {
        sums[group * pairs + column / 2][column % 2] = open[(group * width + column) * 2]
        errors[group * pairs + column / 2][column % 2] = open[(group * width + column) * 2 + 1]
      }
    }
    var added = [Int64](repeating: 0, count: groupCount)
    // An odd last column fills both lanes of its pair; the second lane is never read back.
    let lanes = width % 2 == 0 ? values : values + [values[width - 1]]
    withPointers(lanes[...], []) { pointers in
      pointers.withUnsafeBufferPointer { pointers in
        sums.withUnsafeMutableBufferPointer { sums in
          errors.withUnsafeMutableBufferPointer { errors in
            added.withUnsafeMutableBufferPointer { added in
              groups.withUnsafeBufferPointer { groups in
                for index in 0..<groups.count {
                  var group = Int(groups[index])
                  if let map { group = Int(map[group]) }
                  precondition(
                    UInt(bitPattern: group) < UInt(groupCount), "Internal inconsistency: a group out of range")
                  added[group] += 1
                  var slot = group * pairs, lane = 0
                  while lane < pointers.count {
                    let value = SIMD2(pointers[lane][index], pointers[lane + 1][index])
                    let sum = sums[slot], next = sum + value, back = next - sum
                    errors[slot] += (sum - (next - back)) + (value - back)
                    sums[slot] = next
                    slot += 1
                    lane += 2
                  }
                }
              }
            }
          }
        }
      }
    }
    for group in 0..<groupCount {
      for column in 0..<width {
        let sum = sums[group * pairs + column / 2][column % 2]
        if sum.isFinite && !errors[group * pairs + column / 2][column % 2].isFinite { return false }
      }
    }
    for group in 0..<groupCount {
      counts[group] += added[group]
      for column in 0..<width {
        open[(group * width + column) * 2] = sums[group * pairs + column / 2][column % 2]
        open[(group * width + column) * 2 + 1] = errors[group * pairs + column / 2][column % 2]
      }
    }
    return true
  }

  /// `body` with each slice's first element's address (the slices borrowed one inside the other).
  static func withPointers(
    _ slices: ArraySlice<ArraySlice<Double>>, _ borrowed: [UnsafePointer<Double>],
    _ body: ([UnsafePointer<Double>]) -> Void
  ) {
    guard let slice = slices.first else { return body(borrowed) }
    slice.withUnsafeBufferPointer { withPointers(slices.dropFirst(), borrowed + [$0.baseAddress!], body) }
  }
}
