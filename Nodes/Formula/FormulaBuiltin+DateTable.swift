/// The date functions of the formula languages (SPEC §5), listed after the others by
/// `flow help formulas`: the extension point for dates (empty until they land).
extension FormulaBuiltin {
  static let dateTable: [FormulaBuiltin] = []
}
