import FlowRuntime

/// The sums and means of `window` over one partition (`cumsum cummean rollingSum rollingMean
/// sum mean`): nulls skipped, null over no non-null value.
///
/// Integer sums are exact: a wrapping `Int64` plus the net carries past it; a cell whose
/// carries do not cancel is out of range, an error (never a double). Sums of numbers are
/// compensated (`NeumaierSum`); a rolling sum adds the row that enters and subtracts the one
/// that leaves, and starts afresh from the window's rows every `n` rows (amortized O(1) a row,
/// so the error never accumulates past one window); infinities and NaN are counted apart, so
/// one that leaves the window leaves no NaN behind.
enum WindowSums {
  /// An exact integer sum: `sum + carries · 2⁶⁴`.
  private struct ExactSum {
    var sum: Int64 = 0
    var carries = 0

    mutating func add(_ value: Int64) {
      let (next, overflow) = sum.addingReportingOverflow(value)
      if overflow { carries += value < 0 ? -1 : 1 }
      sum = next
    }

    mutating func subtract(_ value: Int64) {
      let (next, overflow) = sum.subtractingReportingOverflow(value)
      if overflow { carries += value < 0 ? 1 : -1 }
      sum = next
    }
  }

  /// Integer (or bool) sums over `partition` into `values`/`valid` at `position − offset`.
  ///
  /// - Throws: `NodeError` naming the output column when a sum does not fit in 64 bits.
  static func integers(
    _ function: WindowFunction, _ cells: [Int64], _ source: Column, _ rows: [Int32],
    _ partition: Range<Int>, into values: inout [Int64], _ valid: inout [Bool], offset: Int
  ) throws {
    func overflow() -> NodeError {
      NodeError(
        "column '\(function.output)': \(function.function.rawValue)(\(function.column ?? "")) does not fit in a "
          + "64-bit integer (integer sums are exact)")
    }
    var total = ExactSum()
    var seen = 0
    let lo = partition.lowerBound
    if function.function == .sum {
      for position in partition where !source.isNull(Int(rows[position])) {
        total.add(cells[Int(rows[position])])
        seen += 1
      }
      if total.carries != 0 { throw overflow() }
      for position in partition {
        values[position - offset] = total.sum
        valid[position - offset] = seen > 0
      }
      return
    }
    for position in partition {
      let row = Int(rows[position])
      if !source.isNull(row) {
        total.add(cells[row])
        seen += 1
      }
      if function.function == .rollingSum, position - function.size >= lo {
        let leaving = Int(rows[position - function.size])
        if !source.isNull(leaving) {
          total.subtract(cells[leaving])
          seen -= 1
        }
      }
      if seen > 0 && total.carries != 0 { throw overflow() }
      values[position - offset] = total.sum
      valid[position - offset] = seen > 0
    }
  }

  /// A compensated sum that counts infinities and NaN apart (so they can leave a window).
  private struct SlidingSum {
    var finite = NeumaierSum()
    var count = 0, nans = 0, positive = 0, negative = 0

    mutating func add(_ value: Double, sign: Int) {
      count += sign
      if value.isFinite {
        finite.add(sign > 0 ? value : -value)
      } else if value.isNaN {
        nans += sign
      } else if value > 0 {
        positive += sign
      } else {
        negative += sign
      }
    }

    var value: Double {
      if nans > 0 || (positive > 0 && negative > 0) { return .nan }
      if positive > 0 { return .infinity }
      if negative > 0 { return -.infinity }
      return finite.value
    }
  }

  /// Number sums and means (of numbers, or of integers as numbers) over `partition`.
  static func numbers(
    _ function: WindowFunction, _ cells: [Double], _ source: Column, _ rows: [Int32],
    _ partition: Range<Int>, into values: inout [Double], _ valid: inout [Bool], offset: Int
  ) {
    let mean = function.function == .mean || function.function == .cummean || function.function == .rollingMean
    let lo = partition.lowerBound
    switch function.function {
    case .sum, .mean, .cumsum, .cummean:
      var total = NeumaierSum()
      var seen = 0
      let whole = function.function == .sum || function.function == .mean
      if whole {
        for position in partition where !source.isNull(Int(rows[position])) {
          total.add(cells[Int(rows[position])])
          seen += 1
        }
      }
      for position in partition {
        if !whole, !source.isNull(Int(rows[position])) {
          total.add(cells[Int(rows[position])])
          seen += 1
        }
        values[position - offset] = mean ? total.value / Double(Swift.max(seen, 1)) : total.value
        valid[position - offset] = seen > 0
      }
    default:  // rollingSum, rollingMean
      let size = function.size
      var window = SlidingSum()
      for position in partition {
        if (position - lo) % size == 0 {
          window = SlidingSum()
          for inside in Swift.max(lo, position - size + 1)...position where !source.isNull(Int(rows[inside])) {
            window.add(cells[Int(rows[inside])], sign: 1)
          }
        } else {
          if !source.isNull(Int(rows[position])) { window.add(cells[Int(rows[position])], sign: 1) }
          if position - size >= lo, !source.isNull(Int(rows[position - size])) {
            window.add(cells[Int(rows[position - size])], sign: -1)
          }
        }
        values[position - offset] = mean ? window.value / Double(Swift.max(window.count, 1)) : window.value
        valid[position - offset] = window.count > 0
      }
    }
  }
}
