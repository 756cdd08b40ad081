import FlowGraph
import FlowRuntime

/// `derive`: adds (or replaces in place) one column per entry of the `columns` record, in the
/// order the document writes them; an entry's formula may use a column an earlier entry added.
/// Every formula is parsed at load (a syntax error is a validation error naming the param and
/// the column) and the whole list is compiled once per input schema.
struct DeriveNode: RowFormulaKind, RowLocalKind {
  var rowFormulaParameters: [String] { ["columns"] }
  var name: String { "derive" }
  var summary: String { "adds or replaces columns computed by row formulas, e.g. {\"ratio\": \"a / b\"}" }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration(
        "columns", .record, required: true,
        summary: "name → row formula, applied in document order")
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
    var entries: [(name: String, formula: RowFormula)] = []
    // Every bad entry is reported, not only the first.
    var problems: [NodeConfigurationError] = []
    for member in parameters.json("columns")?.objectValue?.members ?? [] {
      guard case .string(let source) = member.value else {
        problems.append(
          NodeConfigurationError(
            parameter: "columns",
            reason: "column '\(member.key)': expected a formula string, got \(member.value.kindName)"))
        continue
      }
      do {
        entries.append((member.key, try RowFormula(parsing: source)))
      } catch {
        problems.append(
          NodeConfigurationError(
            parameter: "columns", reason: error.described(as: "formula for column '\(member.key)'")))
      }
    }
    if let problem = NodeConfigurationError(problems) { throw problem }
    return NodeInstance(
      inputs: [InputPort("table", .table, default: .null)],
      outputs: [PortDeclaration("table", .table)],
      evaluator: Evaluator(
        entries: entries, cache: RowProgramCache(),
        limits: parameters.environment.limits, workers: parameters.environment.workers),
      cost: .expensive)
  }

  struct Evaluator: RowLocalEvaluator {
    let entries: [(name: String, formula: RowFormula)]
    let cache: RowProgramCache
    /// The run's limits: a string a formula makes (`concat`, `replace`) stays within
    /// `maxStringBytes`, and the kernels that build strings check the memory limit as they
    /// build (`RunLimits.checkMemory(adding:for:)`), so the failure names this node.
    let limits: RunLimits
    /// The run's threads (`EvaluationEnvironment.workers`).
    var workers: Int

    /// Adds the columns to one working list (positions by name in a dictionary) and makes the
    /// table once at the end: linear in the number of entries, not quadratic (a table per
    /// entry would copy every column so far).
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let table = try inputs.table(0)
      let programs: [RowProgram]
      do {
        programs = try cache.programs(for: RowSchema(table), compile: compile)
      } catch {
        throw NodeError(error.description)
      }
      let rowCount = table.rowCount
      var names = table.columnNames
      var columns = table.columns
      var index = Self.positions(of: names)
      for (entry, program) in programs.enumerated() {
        try Task.checkCancellation()  // a superseded pass stops between columns
        let name = entries[entry].name
        let column: Column
        do {
          column = try program.column(over: columns, rowCount: rowCount, memory: limits, workers: workers)
        } catch {
          throw NodeError(error.described(as: "formula for column '\(name)'"))
        }
        if case .string(let strings) = column.storage {
          try limits.checkStringBytes(Self.longest(strings), of: "a string of column '\(name)'")
        }
        if let position = index[name] {
          columns[position] = column
        } else {
          index[name] = names.count
          names.append(name)
          columns.append(column)
        }
      }
      do {
        outputs[0] = .table(try Table(names: names, columns: columns, rowCount: rowCount))
      } catch {
        throw TableParameters.failure(error)
      }
    }

    /// The bytes of the longest string of `strings`.
    static func longest(_ strings: StringColumn) -> Int {
      if let dictionary = strings.dictionary { return longest(dictionary) }
      let offsets = strings.offsets
      var longest = 0
      for row in 0..<strings.count { longest = max(longest, offsets[row + 1] - offsets[row]) }
      return longest
    }

    /// Compiles every entry against the schema the earlier entries leave.
    ///
    /// - Complexity: O(columns + total formula length): one index of the schema, grown as
    ///   entries add columns.
    private func compile(_ input: RowSchema) throws(FormulaError) -> [RowProgram] {
      var schema = input
      var index = Self.positions(of: schema.names)
      var programs: [RowProgram] = [], compiled: [RowProgram] = [], written: [Int] = []
      programs.reserveCapacity(entries.count)
      for (name, formula) in entries {
        let program: RowProgram
        do {
          program = try formula.compile(for: schema, index: index)
        } catch {
          throw FormulaError(message: error.described(as: "formula for column '\(name)'"))
        }
        compiled.append(program)
        programs.append(Self.sharing(program, compiled, written))
        let type = RowType(program.resultType.columnType)
        if let position = index[name] {
          schema.types[position] = type
        } else {
          index[name] = schema.names.count
          schema.names.append(name)
          schema.types.append(type)
        }
        written.append(index[name]!)
      }
      return programs
    }

    /// `program` (the last of `compiled`) reading the columns of up to 16 earlier entries
    /// instead of computing their formulas again where it contains them whole (TPC-H Q1's
    /// `charge` holds `disc_price`'s formula): an earlier entry qualifies while its column
    /// (`written`) still holds its result and no entry since it replaced a column it reads.
    private static func sharing(_ program: RowProgram, _ compiled: [RowProgram], _ written: [Int]) -> RowProgram {
      var program = program
      for earlier in stride(from: written.count - 1, through: max(0, written.count - 16), by: -1) {
        let column = written[earlier], reads = compiled[earlier].columnsRead
        guard !written[(earlier + 1)...].contains(column), !written[earlier...].contains(where: reads.contains)
        else { continue }
        program = program.reading(compiled[earlier], from: column)
      }
      return program
    }

    /// The first position of each name.
    private static func positions(of names: [String]) -> [String: Int] {
      var index: [String: Int] = [:]
      index.reserveCapacity(names.count)
      for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
      return index
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

extension DeriveNode: SQLRelationalKind {
  var sqlForm: SQLForm { .derive }
}
