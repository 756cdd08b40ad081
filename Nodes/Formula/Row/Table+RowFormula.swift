import FlowRuntime

// The bridge between `Table` columns and the row-formula evaluator.

extension RowType {
  /// The row-formula type of a column type.
  init(_ type: ColumnType) {
    switch type {
    case .integer: self = .integer
    case .number: self = .number
    case .bool: self = .bool
    case .string: self = .string
    }
  }

  /// The column type a result of this type is stored as. A formula that is always null (type
  /// `null`) makes an `integer` column of nulls, as `Column(values:)` does for all-null values.
  var columnType: ColumnType {
    switch self {
    case .number: .number
    case .bool: .bool
    case .string: .string
    case .integer, .null, .unknown: .integer
    }
  }
}

extension RowSchema {
  /// The names and types of a table's columns.
  init(_ table: Table) {
    self.init(names: table.columnNames, types: table.columns.map { RowType($0.type) })
  }
}

extension RowVector {
  /// A table column as a vector (the typed arrays are shared, not copied).
  init(_ column: Column) {
    let validity = column.validity
    let valid: [Bool]? = validity.nullCount == 0 ? nil : (0..<validity.count).map { validity.isValid($0) }
    switch column.storage {
    case .integer(let values): self = .integer(values, valid: valid)
    case .number(let values): self = .number(values, valid: valid)
    case .bool(let values): self = .bool(values, valid: valid)
    case .string(let values): self = .string(values, valid: valid)
    }
  }

  /// The vector as a table column of `type` (the program's result type): an integer vector of
  /// a `number` result converts, and `.null` becomes `count` nulls.
  func column(as type: RowType, count: Int) -> Column {
    func validity(_ valid: [Bool]?) -> Validity? {
      guard let valid else { return nil }
      // The null rows, then the bitmap a word at a time (appending flag by flag costs more than
      // most formulas do).
      var nullRows: [Int32] = []
      for row in valid.indices where !valid[row] { nullRows.append(Int32(truncatingIfNeeded: row)) }
      return nullRows.isEmpty ? nil : Validity(count: valid.count, nullRows: nullRows)
    }
    switch self {
    case .integer(let values, let valid) where type == .number:
      return Column(.number(values.map { Double($0) }), validity: validity(valid))
    case .integer(let values, let valid): return Column(.integer(values), validity: validity(valid))
    case .number(let values, let valid): return Column(.number(values), validity: validity(valid))
    case .bool(let values, let valid): return Column(.bool(values), validity: validity(valid))
    case .string(let values, let valid): return Column(.string(values), validity: validity(valid))
    case .null: return Column.nulls(type.columnType, count: count)
    }
  }
}

extension RowProgram {
  /// Evaluates the program over a table whose schema it was compiled for; only the columns the
  /// formula uses are read.
  ///
  /// - Throws: a ``FormulaError`` for an integer overflow.
  func evaluate(over table: Table) throws(FormulaError) -> RowVector {
    try evaluate(over: table.columns, rowCount: table.rowCount)
  }

  /// Evaluates the program over `columns` (in the order of the schema it was compiled for) of
  /// `rowCount` rows, reading only the columns the formula uses.
  ///
  /// - Complexity: O(instructions × rows), whatever the number of columns (`derive` evaluates
  ///   one program per column it adds).
  func evaluate(over columns: [Column], rowCount: Int, memory: RunLimits? = nil) throws(FormulaError) -> RowVector {
    var used: [Int: RowVector] = [:]
    for instruction in instructions {
      if case .column(let index) = instruction, used[index] == nil {
        used[index] = RowVector(columns[index])
      }
    }
    return try evaluate(rowCount: rowCount, memory: memory) { used[$0] ?? .null }
  }
}
