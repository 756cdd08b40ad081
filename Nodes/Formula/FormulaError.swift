/// An error produced while parsing or evaluating a ``Formula``.
///
/// Parse errors carry the 1-based character column in the formula source where the problem
/// was found; evaluation errors (such as division by zero) have no column.
package struct FormulaError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A human-readable explanation, e.g. `unexpected ')'`.
  package var message: String
  /// The 1-based character column in the formula, or `nil` for evaluation errors.
  package var column: Int?

  package init(message: String, column: Int? = nil) {
    self.message = message
    self.column = column
  }

  /// `"column 5: unexpected ')'"`, or just the message when there is no column.
  package var description: String {
    if let column {
      return "column \(column): \(message)"
    }
    return message
  }

  /// The evaluation error raised when the divisor of `/` or `%` is zero.
  static let divisionByZero = FormulaError(message: "division by zero")
}
