/// The kind of a function's argument or result in ``FormulaBuiltin/Typing/fixed(_:result:)``.
enum FormulaValueKind: Sendable, Hashable {
  /// An integer (as a result); an argument of this kind takes any number.
  case integer
  /// A number: `integer` or `number`.
  case number
  case string
  case bool
  /// Any type.
  case any
}
