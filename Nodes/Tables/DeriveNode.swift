import FlowGraph
import FlowRuntime

/// `derive`: adds (or replaces in place) one column per entry of the `columns` record, in the
/// order the document writes them; an entry's formula may use a column an earlier entry added.
/// Every formula is parsed at load (a syntax error is a validation error naming the param and
/// the column) and the whole list is compiled once per input schema.
struct DeriveNode: NodeKind {
  var name: String { "derive" }
  var summary: String { "adds or replaces columns computed by row formulas, e.g. {\"ratio\": \"a / b\"}" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("columns", .record, required: true,
                          summary: "name → row formula, applied in document order")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    var entries: [(name: String, formula: RowFormula)] = []
    for member in parameters.json("columns")?.objectValue?.members ?? [] {
      guard case .string(let source) = member.value else {
        throw NodeConfigurationError(
          parameter: "columns", reason: "column '\(member.key)': expected a formula string, got \(member.value.kindName)")
      }
      do {
        entries.append((member.key, try RowFormula(parsing: source)))
      } catch {
        throw NodeConfigurationError(
          parameter: "columns", reason: "column '\(member.key)': does not parse: \(error.description)")
      }
    }
    return NodeInstance(inputs: [InputPort("table", .table, default: .null)],
                        outputs: [PortDeclaration("table", .table)],
                        evaluator: Evaluator(entries: entries, cache: RowProgramCache()), cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let entries: [(name: String, formula: RowFormula)]
    let cache: RowProgramCache

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      var table = try inputs.table(0)
      let programs: [RowProgram]
      do {
        programs = try cache.programs(for: RowSchema(table), compile: compile)
      } catch {
        throw NodeError(error.description)
      }
      for (index, program) in programs.enumerated() {
        try Task.checkCancellation()  // a superseded pass stops between columns
        let name = entries[index].name
        do {
          let column = try program.evaluate(over: table).column(as: program.resultType, count: table.rowCount)
          table = try table.settingColumn(name, to: column)
        } catch let error as FormulaError {
          throw NodeError("column '\(name)': \(error.description)")
        }
      }
      outputs[0] = .table(table)
    }

    /// Compiles every entry against the schema the earlier entries leave.
    private func compile(_ input: RowSchema) throws(FormulaError) -> [RowProgram] {
      var schema = input
      var programs: [RowProgram] = []
      for (name, formula) in entries {
        let program: RowProgram
        do {
          program = try formula.compile(for: schema)
        } catch {
          throw FormulaError(message: "column '\(name)': \(error.description)")
        }
        programs.append(program)
        let type = RowType(program.resultType.columnType)
        if let index = schema.names.firstIndex(of: name) {
          schema.types[index] = type
        } else {
          schema.names.append(name)
          schema.types.append(type)
        }
      }
      return programs
    }
  }
}

extension JSONValue {
  /// The JSON kind for messages: `number`, `string`, `object`, ….
  fileprivate var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "bool"
    case .number, .integer: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}
