extension Table {
  /// The rows at `rows`, in that order (a selection vector: filter, sort, limit, join); a row
  /// of -1 gives a row of nulls.
  ///
  /// - Parameter workers: the most threads a large table's columns are gathered on (a kind
  ///   passes its `EvaluationEnvironment.workers`); each column is gathered whole by one
  ///   thread, so the result is the same at any count.
  /// - Complexity: O(`rows.count` × columns).
  public func gathering(_ rows: [Int32], workers: Int) -> Table {
    // Lengths and names are unchanged, so the storage invariants hold.
    let source = storage.columns
    // The rows checked once for every column (each has `rowCount` cells).
    let checked = UnsafeRowGather.Rows(rows, below: rowCount)
    let columns = TableParallelism.map(source.count, cells: rows.count * source.count, workers: workers) {
      if let checked { source[$0].gathering(checked) } else { source[$0].gathering(rows) }
    }
    return Table(unchecked: storage.names, columns: columns, rowCount: rows.count, index: storage.indexByName)
  }

  /// Rows `range` (clamped to the table), gathered on up to `workers` threads (default one: a
  /// page or a head; `limit` passes its `EvaluationEnvironment.workers`).
  public func slice(_ range: Range<Int>, workers: Int = 1) -> Table {
    let clamped = range.clamped(to: 0..<rowCount)
    if clamped == 0..<rowCount { return self }
    return gathering(clamped.map { Int32($0) }, workers: workers)
  }

  /// The columns at `indices`, named `names` (the same names by default), sharing the storage
  /// of each column.
  ///
  /// - Throws: `TableError` if a new name repeats.
  public func selecting(_ indices: [Int], as names: [String]? = nil) throws(TableError) -> Table {
    try Table(
      names: names ?? indices.map { storage.names[$0] }, columns: indices.map { storage.columns[$0] },
      rowCount: rowCount)
  }

  /// The table with column `name` set to `column`: replaced in place if it exists, else added
  /// at the end.
  ///
  /// - Throws: `TableError` if `column` has another number of rows (and the table has columns).
  public func settingColumn(_ name: String, to column: Column) throws(TableError) -> Table {
    var names = storage.names
    var columns = storage.columns
    if let index = storage.indexByName[name] {
      columns[index] = column
    } else {
      names.append(name)
      columns.append(column)
    }
    if columns.count == 1 { return try Table(names: names, columns: columns) }
    guard column.count == rowCount else {
      throw TableError("column '\(name)' has \(column.count) rows, expected \(rowCount)")
    }
    return try Table(names: names, columns: columns)
  }

  /// The rows of `tables` one after another; every table must have the same column names in
  /// the same order (integer and number columns mix into `number`).
  ///
  /// - Throws: `TableError` if names or types differ.
  public static func concatenating(_ tables: [Table]) throws(TableError) -> Table {
    guard let first = tables.first else { return Table() }
    if tables.count == 1 { return first }
    for table in tables.dropFirst() where table.columnNames != first.columnNames {
      throw TableError("cannot concatenate tables with columns \(first.columnNames) and \(table.columnNames)")
    }
    var columns: [Column] = []
    for index in 0..<first.columnCount {
      columns.append(try Column.concatenating(tables.map { $0.storage.columns[index] }))
    }
    return try Table(names: first.columnNames, columns: columns, rowCount: tables.reduce(0) { $0 + $1.rowCount })
  }

  /// A table whose invariants the caller has established.
  init(unchecked names: [String], columns: [Column], rowCount: Int, index: [String: Int]) {
    storage = Storage(names: names, columns: columns, rowCount: rowCount, indexByName: index)
  }
}
