import FlowRuntime

/// The rows of tables with the same columns (names and types), one after another, by whole
/// arrays (`Table.concatenating` copies cell by cell and mixes integers into numbers; a
/// streamed chain's morsels always agree, so this is the same table, faster).
enum TableConcatenation {
  /// - Throws: `TableError` if the tables' names or column types differ.
  static func rows(of tables: [Table]) throws(TableError) -> Table {
    guard let first = tables.first else { return Table() }
    if tables.count == 1 { return first }
    let rowCount = tables.reduce(0) { $0 + $1.rowCount }
    var columns: [Column] = []
    for index in 0..<first.columnCount {
      let parts = tables.map { $0.column(at: index) }
      guard tables.allSatisfy({ $0.columnNames == first.columnNames }), parts.allSatisfy({ $0.type == parts[0].type })
      else {
        return try Table.concatenating(tables)
      }
      var nullRows: [Int32] = []
      var base = 0
      for part in parts {
        if part.nullCount > 0 {
          for row in 0..<part.count where part.isNull(row) { nullRows.append(Int32(truncatingIfNeeded: base + row)) }
        }
        base += part.count
      }
      let validity = nullRows.isEmpty ? Validity(allValid: rowCount) : Validity(count: rowCount, nullRows: nullRows)
      switch parts[0].storage {
      case .integer:
        var values: [Int64] = []
        values.reserveCapacity(rowCount)
        for part in parts { if case .integer(let more) = part.storage { values.append(contentsOf: more) } }
        columns.append(Column(.integer(values), validity: validity))
      case .number:
        var values: [Double] = []
        values.reserveCapacity(rowCount)
        for part in parts { if case .number(let more) = part.storage { values.append(contentsOf: more) } }
        columns.append(Column(.number(values), validity: validity))
      case .bool:
        var values: [Bool] = []
        values.reserveCapacity(rowCount)
        for part in parts { if case .bool(let more) = part.storage { values.append(contentsOf: more) } }
        columns.append(Column(.bool(values), validity: validity))
      case .string:
        // Dictionary morsels stay one dictionary column while their merged dictionary is small.
        let strings = StringColumn.concatenating(
          parts.compactMap { part in
            if case .string(let more) = part.storage { more } else { nil }
          })
        columns.append(Column(.string(strings), validity: validity))
      }
    }
    return try Table(names: first.columnNames, columns: columns, rowCount: rowCount)
  }
}
