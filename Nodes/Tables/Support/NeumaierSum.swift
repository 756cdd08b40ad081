/// A compensated running sum (Neumaier's variant of Kahan summation): the low-order bits each
/// addition loses are kept in `compensation` and added back at the end, so adding 365 values
/// such as `2.3` gives the nearest double to their exact sum (`828`, not `827.9999999999995`).
///
/// Invariant: while `sum` is finite, `sum + compensation` is the sum of the values added with
/// an error of about one rounding, whatever their number; once `sum` is infinite or NaN it is
/// the result (the compensation of an infinity is NaN and is ignored).
struct NeumaierSum: Sendable {
  /// The plain running sum.
  var sum = 0.0
  /// The rounding errors of the additions so far.
  var compensation = 0.0

  /// Adds `value`.
  @inline(__always) mutating func add(_ value: Double) {
    let next = sum + value
    compensation += Self.error(of: sum, plus: value, giving: next)
    sum = next
  }

  /// The compensated sum.
  var value: Double { Self.total(sum, compensation) }

  /// The rounding error of `sum + value == next`: exact (two-sum of the larger and the smaller
  /// operand), branch-free in the kernels that keep one sum per group.
  @inline(__always) static func error(of sum: Double, plus value: Double, giving next: Double) -> Double {
    abs(sum) >= abs(value) ? (sum - next) + value : (value - next) + sum
  }

  /// `sum` corrected by `compensation`, or `sum` itself once it is not finite.
  @inline(__always) static func total(_ sum: Double, _ compensation: Double) -> Double {
    sum.isFinite ? sum + compensation : sum
  }
}
