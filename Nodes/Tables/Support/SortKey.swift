import FlowRuntime

/// One entry of `sort.by`: a column (`"name"`, `"-name"` descending), or a row formula whose
/// value per row is the key (`"-abs(delay)"`: descending by `abs(delay)`).
///
/// An entry is a column when it parses as a bare name, or does not parse at all (a column such
/// as `body mass` keeps working, and a missing one fails as before: `no column 'x'`); a column
/// whose name is the entry itself wins over the formula when the table has one.
struct SortKey: Sendable {
  /// The entry without its leading `-`.
  let name: String
  let descending: Bool
  /// The formula, when the entry is not a bare name.
  let formula: RowFormula?

  /// Reads an entry of `by`.
  init(_ entry: String) {
    descending = entry.hasPrefix("-")
    name = descending ? String(entry.dropFirst()) : entry
    guard let parsed = try? RowFormula(parsing: name), parsed.columns != [name] || !Self.isBareName(name) else {
      formula = nil
      return
    }
    formula = parsed
  }

  /// Whether `text` is a name as a formula writes one bare (letters, digits, `_`, not first a digit).
  private static func isBareName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
    return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
  }

  /// The key column over `table`: the named column, or the formula evaluated per row.
  ///
  /// - Throws: `NodeError`: `no column 'x' (columns: …)`, or the formula's error naming the
  ///   entry (`formula 'abs(x)' …`).
  func column(of table: Table) throws -> Column {
    if let index = table.columnIndex(named: name) { return table.column(at: index) }
    guard let formula else { return table.column(at: try TableParameters.column(name, in: table)) }
    do throws(FormulaError) {
      let program = try formula.compile(for: RowSchema(table))
      return try program.evaluate(over: table).column(as: program.resultType, count: table.rowCount)
    } catch {
      throw NodeError(
        error.column == nil ? "param 'by': '\(name)': \(error.message)" : error.described(as: "param 'by' '\(name)'"))
    }
  }
}
