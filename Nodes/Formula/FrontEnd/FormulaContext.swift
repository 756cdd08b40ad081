/// Which of the two formula languages a text is read in: what the one lexer and parser accept.
///
/// Both languages share the grammar (numbers, names, `+ - * / % ^`, unary `-`/`+`, parentheses,
/// calls); the row language adds tokens (string literals, backticked names, comparisons) and
/// words (`true false null not and or`, and `in` after an operand), and its own functions (``FormulaBuiltin/contexts``).
/// Anything the context lacks is reported where it is read, so errors come in source order
/// whichever language is parsed. Types are a matter for each context's checker
/// (`ScalarFormulaChecker`, `RowFormulaChecker`), after parsing.
enum FormulaContext: Sendable, Hashable {
  /// The calculator language of the `expression` node kind: numbers only; names are variables.
  case scalar
  /// Row formulas (`filter.where`, `derive.columns`): names are a table's columns.
  case row

  /// What a bare word stands for in a context, if it is not a name.
  enum Word: Sendable, Equatable {
    /// `pi` or `e`.
    case constant(Double)
    /// `true`, `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// `not`, a prefix operator (`not(x)` is `not` applied to `(x)`, never a call).
    case not
    /// `and`, `or`: binary operators, which cannot start an operand.
    case infix(FormulaOperator)
    /// `in` after an operand, followed by a parenthesized list (`x in (1, 2)`); where an
    /// operand is expected it is a name, so a column called `in` keeps working bare.
    case membership
  }

  /// Whether the lexer recognizes `"strings"`, `` `names` `` and `< <= == != >= >`.
  var allowsRowTokens: Bool { self == .row }

  /// The meaning of a bare word, or nil when it is a name (a variable or a column).
  func word(_ text: String) -> Word? {
    switch text {
    case "pi": return .constant(Double.pi)
    case "e": return .constant(2.718281828459045235360287)
    default: break
    }
    guard self == .row else { return nil }
    switch text {
    case "true": return .bool(true)
    case "false": return .bool(false)
    case "null": return .null
    case "not": return .not
    case "and": return .infix(.and)
    case "or": return .infix(.or)
    case "in": return .membership
    default: return nil
    }
  }
}
