import FlowRuntime

extension RowFormula {
  /// Compiles the formula against `table`'s columns and evaluates it over its rows (what
  /// `derive` does for one column), for the fuzz campaign and probes outside the module.
  ///
  /// - Returns: the type of the result.
  /// - Throws: a ``FormulaError``: a type error, a missing column, an overflow, a text that
  ///   `number` cannot read.
  package func probe(over table: Table) throws(FormulaError) -> String {
    let program = try compile(for: RowSchema(table))
    _ = try program.evaluate(over: table)
    return program.resultType.description
  }
}
