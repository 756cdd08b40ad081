/// Where an integer operation overflowed: the arithmetic kernels only say that one did (their
/// loops stay tight); the error path looks again for the first row, so the message can name it.
extension RowVector {
  /// The first row (0-based) where integer `left op right` (`+`, `-`, `*`) overflows with both
  /// operands valid, or `nil` if none does.
  ///
  /// - Complexity: O(`count`), only on the error path.
  static func firstOverflowRow(_ op: RowArithmetic, _ left: RowVector, _ right: RowVector, count: Int) -> Int? {
    guard case .integer(let a, let leftValid) = left, case .integer(let b, let rightValid) = right else { return nil }
    for row in 0..<count where (leftValid?[row] ?? true) && (rightValid?[row] ?? true) {
      let overflow: Bool
      switch op {
      case .add: overflow = a[row].addingReportingOverflow(b[row]).overflow
      case .subtract: overflow = a[row].subtractingReportingOverflow(b[row]).overflow
      case .multiply: overflow = a[row].multipliedReportingOverflow(by: b[row]).overflow
      default: overflow = false
      }
      if overflow { return row }
    }
    return nil
  }

  /// The first row (0-based) where negating this integer vector overflows (a valid
  /// `Int64.min`), or `nil` if none does.
  func firstNegationOverflowRow() -> Int? {
    guard case .integer(let values, let valid) = self else { return nil }
    return values.indices.first { values[$0] == .min && (valid?[$0] ?? true) }
  }
}
