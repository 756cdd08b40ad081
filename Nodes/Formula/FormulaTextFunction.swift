/// The string functions of row formulas (Reference.md, "Formulas"), e.g. `substr(s, 1, 2)` or `len(s)`: their
/// names and arities. ``FormulaBuiltin/table`` lists them with their types; the row back end
/// runs them over a column's UTF-8 bytes (`RowVector+Strings.swift`).
package enum FormulaTextFunction: String, Sendable, Hashable, CaseIterable {
  case len, lower, upper, trim, substr, contains, startsWith, endsWith, replace, concat
  case string, number
  /// `like(s, pattern)`: SQL `LIKE` (`LikePattern`).
  case like
  /// `format(x, spec)`: a number written with a `format` placeholder's spec (`NumberFormat`).
  case format

  /// The name a formula calls it by: the case's raw value, the one place it is spelt.
  package var name: String { rawValue }

  var arity: FormulaBuiltin.Arity {
    switch self {
    case .len, .lower, .upper, .trim, .string, .number: .exactly(1)
    case .contains, .startsWith, .endsWith, .like, .format: .exactly(2)
    case .substr: .between(2, 3)
    case .replace: .exactly(3)
    case .concat: .atLeast(1)
    }
  }
}
