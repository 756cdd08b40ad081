/// A compiled node: the relation (view or CTE) that holds its rows, with the row-number column
/// first, then its columns.
struct SQLRelation {
  /// The node id (or a helper's name), unquoted.
  var name: String
  var columns: [String]
  var types: [SQLType]

  /// The column's type, or nil when the relation has no such column.
  func type(of column: String, index: [String: Int]) -> SQLType? { index[column].map { types[$0] } }

  /// Positions by name (the first of a repeated name).
  var index: [String: Int] {
    var index: [String: Int] = [:]
    index.reserveCapacity(columns.count)
    for (position, name) in columns.enumerated() where index[name] == nil { index[name] = position }
    return index
  }
}

/// One statement of a script before the dialect's framing: a named relation, a dialect
/// statement written as is (a source table, a `\copy`), or an output.
enum SQLStatement {
  case relation(name: String, select: String)
  case raw(String)
  case output(SQLOutput)
}

/// What a script produces: a writer's file, or the rows of a node chosen with `--node`.
struct SQLOutput {
  enum Format {
    case csv(delimiter: String)
    case json
    /// A Parquet file: the `compression` param as written, and rows per row group.
    case parquet(compression: String, rowGroupRows: Int)
    /// The rows, as the result of a final `SELECT`.
    case rows
  }

  /// The node that outputs.
  var node: String
  var format: Format
  /// The path the writer writes, as the document wrote it.
  var path: String
  var relation: SQLRelation
}
