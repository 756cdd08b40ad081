/// The text of `flow help formulas`: every function of the formula languages with its one-line
/// description and an example, straight from ``FormulaBuiltin/table`` (so a function added to
/// the table is listed without more work).
package enum FormulaHelp {
  /// The help text, one function a line, grouped as the table is: numbers, strings, nulls and
  /// sets, dates.
  package static var text: String {
    var lines = [
      "OVERVIEW: the functions of formulas: 'expression' (numbers) and row formulas ('filter.where',",
      "'derive.columns'). A null argument gives null unless said otherwise; positions in text count",
      "Unicode scalars from 1, as in SQL.",
      ""
    ]
    let groups: [(String, [FormulaBuiltin])] = [
      ("NUMBERS (expression and row formulas):", FormulaBuiltin.numericTable),
      ("TEXT (row formulas):", FormulaBuiltin.stringTable),
      ("NULLS, CHOICES AND SETS (row formulas):", FormulaBuiltin.nullTable),
      ("DATES (row formulas):", FormulaBuiltin.dateTable)
    ]
    for (title, functions) in groups where !functions.isEmpty {
      lines.append(title)
      for function in functions {
        let name = function.name + " " + String(repeating: " ", count: max(0, 11 - function.name.count))
        lines.append("  \(name)\(function.summary)")
        lines.append("  \(String(repeating: " ", count: 12))e.g. \(function.example)")
      }
      lines.append("")
    }
    return lines.joined(separator: "\n")
  }
}
