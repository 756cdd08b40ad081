import FlowRuntime

/// `filter`: keeps the rows of `table` where the row formula `where` is true (not false, not
/// null), in order. The formula is parsed at load (a syntax error is a validation error naming
/// the param and the character: `param 'where' at character 3: …`) and compiled once per
/// table schema (a type error fails the node: `formula 'where', at character 9: …`).
struct FilterNode: RowFormulaKind, RowLocalKind {
  var rowFormulaParameters: [String] { ["where"] }
  var name: String { "filter" }
  var summary: String { "keeps the rows where a row formula is true, e.g. species == \"Adelie\" and mass > 4000" }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration(
        "where", .string, required: true,
        summary: "row formula: columns, comparisons, and/or/not, \"strings\", null, isNull, if")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    // `@name`s in the formulas are scalar inputs, written into the formulas when the node runs.
    try RowFormulaBinding.instantiate(parameters, formulas: rowFormulaParameters) {
      parameters throws(NodeConfigurationError) in
      try configured(parameters)
    }
  }

  /// The node for params whose formulas hold no `@name`.
  private func configured(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let formula: RowFormula
    do {
      formula = try RowFormula(parsing: parameters.string("where") ?? "")
    } catch {
      throw NodeConfigurationError(
        parameter: "where",
        reason: error.column.map { "at character \($0): \(error.message)" } ?? "does not parse: \(error.message)")
    }
    let type = formula.typeWithoutTable
    if type != .bool, type != .null, type != .unknown {
      throw NodeConfigurationError(parameter: "where", reason: "gives \(type) values, not true/false")
    }
    return NodeInstance(
      inputs: [InputPort("table", .table, default: .null)],
      outputs: [PortDeclaration("table", .table)],
      evaluator: Evaluator(formula: formula, cache: RowProgramCache(), workers: parameters.environment.workers),
      cost: .expensive)
  }

  struct Evaluator: RowLocalEvaluator {
    let formula: RowFormula
    let cache: RowProgramCache
    /// The run's threads (`EvaluationEnvironment.workers`).
    var workers: Int

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let table = try inputs.table(0)
      let rows = try selection(of: table)
      // Every row kept: pass the same table on (O(1) cutoff downstream).
      outputs[0] = .table(rows.map { table.gathering($0, workers: workers) } ?? table)
    }

    /// The rows of `table` the formula keeps, increasing; `nil` when it keeps every row.
    ///
    /// - Throws: `NodeError` as `evaluate` does.
    func selection(of table: Table) throws -> [Int32]? {
      try TableParameters.checkRowIndices(table, for: "filter")
      let rows: [Int32]
      do throws(FormulaError) {
        let formula = self.formula
        let program = try cache.programs(for: RowSchema(table)) { schema throws(FormulaError) in
          [try formula.compile(for: schema)]
        }[0]
        guard program.resultType == .bool || program.resultType == .null else {
          throw FormulaError(message: "'where' gives \(program.resultType) values, not true/false")
        }
        rows = try program.trueRows(over: table.columns, rowCount: table.rowCount, workers: workers)
      } catch {
        throw NodeError(error.column == nil ? error.message : error.described(as: "formula 'where'"))
      }
      return rows.count == table.rowCount ? nil : rows
    }
  }
}

extension FilterNode: SQLRelationalKind {
  var sqlForm: SQLForm { .filter }
}
