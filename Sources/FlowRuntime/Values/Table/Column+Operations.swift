extension Column {
  /// A column of integers (`nil` = null).
  public static func integers(_ cells: [Int64?]) -> Column {
    Column(.integer(cells.map { $0 ?? 0 }), validity: Validity(cells.lazy.map { $0 != nil }))
  }

  /// A column of numbers (`nil` = null).
  public static func numbers(_ cells: [Double?]) -> Column {
    Column(.number(cells.map { $0 ?? 0 }), validity: Validity(cells.lazy.map { $0 != nil }))
  }

  /// A column of bools (`nil` = null).
  public static func bools(_ cells: [Bool?]) -> Column {
    Column(.bool(cells.map { $0 ?? false }), validity: Validity(cells.lazy.map { $0 != nil }))
  }

  /// A column of strings (`nil` = null).
  public static func strings(_ cells: [String?]) -> Column {
    Column(.string(StringColumn(cells.lazy.map { $0 ?? "" })), validity: Validity(cells.lazy.map { $0 != nil }))
  }

  /// A column of `count` nulls of `type`.
  public static func nulls(_ type: ColumnType, count: Int) -> Column {
    var builder = ColumnBuilder(type, capacity: count)
    for _ in 0..<count { builder.appendNull() }
    return builder.build()
  }

  /// A column from values of one scalar type (integers and numbers mix into `number`).
  ///
  /// - Parameter ifAllNull: the type when every value is null (or there are none).
  /// - Throws: `TableError` if a value is not a scalar or types mix.
  public init(values: [Value], ifAllNull: ColumnType = .integer) throws(TableError) {
    var type: ColumnType?
    for value in values where !value.isNull {
      guard let cellType = ColumnType(of: value) else {
        throw TableError("a table cell cannot hold a \(value.typeName)")
      }
      switch (type, cellType) {
      case (nil, _): type = cellType
      case (.integer?, .number), (.number?, .integer): type = .number
      case (let known?, _) where known == cellType: break
      case (let known?, _): throw TableError("a column mixes \(known) and \(cellType) values")
      }
    }
    var builder = ColumnBuilder(type ?? ifAllNull, capacity: values.count)
    for value in values { try builder.append(value) }
    self = builder.build()
  }

  /// The cells at `rows`, in that order; a row of -1 gives a null cell (for outer joins).
  ///
  /// - Complexity: O(`rows.count`).
  public func gathering(_ rows: [Int32]) -> Column {
    if let checked = UnsafeRowGather.Rows(rows, below: count) { return gathering(checked) }
    let noNulls = validity.nullCount == 0 && !rows.contains(-1)
    func gather<T>(_ values: [T], _ placeholder: T) -> [T] {
      rows.map { $0 >= 0 ? values[Int($0)] : placeholder }
    }
    let newValidity = noNulls ? Validity(allValid: rows.count) : validity.gathering(rows)
    switch storage {
    case .integer(let values): return Column(.integer(gather(values, 0)), validity: newValidity)
    case .number(let values): return Column(.number(gather(values, 0)), validity: newValidity)
    case .bool(let values): return Column(.bool(gather(values, false)), validity: newValidity)
    case .string(let strings): return Column(.string(strings.gathering(rows)), validity: newValidity)
    }
  }

  /// The cells at `rows` (each checked to be a row of this column: no -1).
  func gathering(_ rows: UnsafeRowGather.Rows) -> Column {
    precondition(rows.bound == count, "Internal inconsistency: rows checked for another column")
    let gathered = validity.nullCount == 0 ? Validity(allValid: rows.rows.count) : validity.gathering(rows.rows)
    switch storage {
    case .integer(let values): return Column(.integer(UnsafeRowGather.gathering(values, rows)), validity: gathered)
    case .number(let values): return Column(.number(UnsafeRowGather.gathering(values, rows)), validity: gathered)
    case .bool(let values): return Column(.bool(UnsafeRowGather.gathering(values, rows)), validity: gathered)
    case .string(let strings): return Column(.string(strings.gathering(rows)), validity: gathered)
    }
  }

  /// Rows `range` of the column.
  public func slice(_ range: Range<Int>) -> Column {
    gathering(range.map { Int32($0) })
  }

  /// The column as `number` (an `integer` column converts; others are returned as they are).
  public func asNumbers() -> Column {
    guard case .integer(let values) = storage else { return self }
    return Column(.number(values.map { Double($0) }), validity: validity)
  }

  /// The cells of `columns` one after the other. Integer and number columns mix into `number`.
  ///
  /// - Throws: `TableError` if the columns have other different types.
  public static func concatenating(_ columns: [Column]) throws(TableError) -> Column {
    guard let first = columns.first else { return Column(.integer([])) }
    var type = first.type
    for column in columns.dropFirst() where column.type != type {
      if column.isNumeric && (type == .integer || type == .number) { type = .number; continue }
      throw TableError("cannot concatenate a \(type) column with a \(column.type) column")
    }
    if type == .string, columns.contains(where: \.isDictionaryEncoded) { return concatenatingStrings(columns) }
    var builder = ColumnBuilder(type, capacity: columns.reduce(0) { $0 + $1.count })
    for column in columns {
      for row in 0..<column.count { builder.append(from: column, row: row) }
    }
    return builder.build()
  }

  /// Whether the column is a string column in the dictionary layout.
  package var isDictionaryEncoded: Bool {
    if case .string(let strings) = storage { strings.isDictionaryEncoded } else { false }
  }

  /// String columns one after the other, keeping dictionaries (`StringColumn.concatenating`).
  private static func concatenatingStrings(_ columns: [Column]) -> Column {
    var nullRows: [Int32] = []
    var base = 0
    var strings: [StringColumn] = []
    for column in columns {
      if case .string(let part) = column.storage { strings.append(part) }
      if column.nullCount > 0 {
        for row in 0..<column.count where column.isNull(row) { nullRows.append(Int32(truncatingIfNeeded: base + row)) }
      }
      base += column.count
    }
    let validity = nullRows.isEmpty ? Validity(allValid: base) : Validity(count: base, nullRows: nullRows)
    return Column(.string(StringColumn.concatenating(strings)), validity: validity)
  }
}
