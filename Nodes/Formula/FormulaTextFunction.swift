/// The string functions of row formulas (SPEC §5), e.g. `substr(s, 1, 2)` or `len(s)`: their
/// names and arities. ``FormulaBuiltin/table`` lists them with their types; the row back end
/// runs them over a column's UTF-8 bytes (`RowVector+Strings.swift`).
enum FormulaTextFunction: Sendable, Hashable, CaseIterable {
  case len, lower, upper, trim, substr, contains, startsWith, endsWith, replace, concat
  case string, number

  /// The name a formula calls it by.
  var name: String {
    switch self {
    case .len: "len"
    case .lower: "lower"
    case .upper: "upper"
    case .trim: "trim"
    case .substr: "substr"
    case .contains: "contains"
    case .startsWith: "startsWith"
    case .endsWith: "endsWith"
    case .replace: "replace"
    case .concat: "concat"
    case .string: "string"
    case .number: "number"
    }
  }

  var arity: FormulaBuiltin.Arity {
    switch self {
    case .len, .lower, .upper, .trim, .string, .number: .exactly(1)
    case .contains, .startsWith, .endsWith: .exactly(2)
    case .substr: .between(2, 3)
    case .replace: .exactly(3)
    case .concat: .atLeast(1)
    }
  }
}
