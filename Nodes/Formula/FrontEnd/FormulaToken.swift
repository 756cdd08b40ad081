/// One token of a formula. Positions are UTF-8 offsets into the source; they are turned into
/// 1-based character columns only when an error is reported.
struct FormulaToken: Sendable, Equatable {
  enum Kind: Sendable, Equatable {
    /// A number literal: its value, and the exact value when it is written with digits only
    /// and fits an `Int64` (the row language's integer literal).
    case number(Double, integer: Int64?)
    case identifier
    case plus, minus, star, slash, percent, caret
    case leftParen, rightParen, comma
    /// Row formulas only (see `FormulaLexer+RowTokens.swift`): a string literal with its escapes
    /// decoded, a backticked column name, and the comparison operators.
    case string(String)
    case quotedName(String)
    case less, lessOrEqual, equal, notEqual, greaterOrEqual, greater
    case end
  }

  var kind: Kind
  /// UTF-8 offset of the first byte of the token.
  var start: Int
  /// UTF-8 offset just past the last byte of the token.
  var end: Int
}
