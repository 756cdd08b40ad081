import FlowGraph
import FlowRuntime

/// `readParquet` and `writeParquet` in each dialect's own terms: DuckDB's `read_parquet(…)` and
/// `COPY … TO … (FORMAT parquet)`, Spark's `USING parquet` view and `INSERT OVERWRITE
/// DIRECTORY … USING parquet`; Postgres and Trino, which read tables, read the table named by
/// the reader node (as for `readJSON`) and end with the writer's `SELECT`. A reader's columns
/// are cast to the types flow reads from the file (read now, as for `readCSV`); a path is one
/// plain literal, so a hostile one cannot end a statement.
extension SQLCompiler {
  /// The codecs `writeParquet`'s `compression` names, with DuckDB's and Spark's names for them.
  static let parquetCodecs: [String: (duckdb: String, spark: String)] = [
    "snappy": ("snappy", "snappy"), "gzip": ("gzip", "gzip"), "zstd": ("zstd", "zstd"), "lz4": ("lz4_raw", "lz4"),
    "none": ("uncompressed", "none")
  ]

  mutating func parquetSource(_ node: FlowNode) throws(SQLExportError) -> SQLRelation {
    let table = try readTable(node, .parquet)
    let columns = table.columnNames
    let types = table.columns.map { SQLType($0.type) }
    let path = try plainPath(node, node.data.params["path"]?.stringValue ?? "")
    var typedList = ""
    for (name, type) in zip(columns, types) {
      typedList += ", CAST(\(q(name)) AS \(dialect.typeName(type))) AS \(q(name))"
    }
    switch dialect {
    case .duckdb:
      return add(
        node.id, "SELECT row_number() OVER () AS \(row)\(typedList) FROM read_parquet(\(dialect.literal(path)))",
        columns, types)
    case .spark:
      let file = helperName(node.id)
      addRaw("CREATE OR REPLACE TEMPORARY VIEW \(q(file)) USING parquet OPTIONS (path \(dialect.literal(path)))")
      return add(node.id, "SELECT monotonically_increasing_id() AS \(row)\(typedList) FROM \(q(file))", columns, types)
    case .postgres, .trino:
      let source = SQLExporter.sourceTable(node.id)
      addRaw("-- the table \(q(source)) holds the rows of \(path.controlEscaped) (Parquet), their file order in \(row)")
      return add(node.id, "SELECT \(row)\(typedList) FROM \(q(source))", columns, types)
    }
  }

  /// The output format of a `writeParquet` node (its `compression` checked).
  func parquetFormat(_ node: FlowNode) throws(SQLExportError) -> SQLOutput.Format {
    let compression = node.data.params["compression"]?.stringValue ?? "snappy"
    guard Self.parquetCodecs[compression] != nil else {
      throw SQLExportError(
        node: node.id,
        "param 'compression' must be snappy, gzip, zstd, lz4 or none, found \"\(compression.controlEscaped)\"")
    }
    let rows = node.data.params["rowGroupRows"]?.integerValue ?? 1_048_576
    guard rows >= 1, rows <= Int64(Int32.max) else {
      throw SQLExportError(node: node.id, "param 'rowGroupRows' must be 1…\(Int32.max), found \(rows)")
    }
    return .parquet(compression: compression, rowGroupRows: Int(rows))
  }

  /// The statement that writes `query`'s rows to the Parquet file (DuckDB) or directory (Spark)
  /// `path`.
  static func parquetOutput(_ dialect: SQLDialect, query: String, path: String, compression: String, rowGroupRows: Int)
    -> String
  {
    let codec = parquetCodecs[compression] ?? ("snappy", "snappy")
    if dialect == .spark {
      return
        "INSERT OVERWRITE DIRECTORY \(dialect.literal(path)) USING parquet OPTIONS (compression '\(codec.spark)')\n  \(query);\n"
    }
    return
      "COPY (\(query)) TO \(dialect.literal(path)) (FORMAT parquet, COMPRESSION '\(codec.duckdb)', ROW_GROUP_SIZE \(rowGroupRows));\n"
  }
}
