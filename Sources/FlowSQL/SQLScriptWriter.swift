/// Frames a compiler's statements as one script of a dialect: a header, the session settings
/// the semantics need, one `CREATE … VIEW` per relation (Trino: one `WITH` per output), and
/// the outputs (`COPY … TO`, `INSERT OVERWRITE DIRECTORY`, or a final `SELECT`), each ordered
/// by the row-number column. Linear in the statements' text.
struct SQLScriptWriter {
  let dialect: SQLDialect
  let statements: [SQLStatement]
  let nodeCount: Int

  var script: String {
    let row = dialect.quote(SQLExporter.rowColumn)
    var text = "-- flow export --sql --dialect \(dialect.rawValue): \(nodeCount) nodes.\n"
    text += "-- Run it in the document's folder: paths are as the document wrote them.\n"
    switch dialect {
    case .duckdb: text += "SET TimeZone = 'UTC';\n"
    case .spark: text += "SET spark.sql.ansi.enabled = true;\nSET spark.sql.session.timeZone = UTC;\n"
    case .postgres: text += "SET TIME ZONE 'UTC';\nSET standard_conforming_strings = on;\n"
    case .trino: break
    }
    var ctes: [String] = []
    for statement in statements {
      switch statement {
      case .raw(let sql):
        text += sql + (sql.hasPrefix("\\") || sql.hasPrefix("--") ? "\n" : ";\n")
      case .relation(let name, let select):
        if dialect == .trino {
          ctes.append("\(dialect.quote(name)) AS (\(select))")
        } else {
          let create = dialect == .spark ? "CREATE OR REPLACE TEMPORARY VIEW" : "CREATE OR REPLACE TEMP VIEW"
          text += "\(create) \(dialect.quote(name)) AS\n  \(select);\n"
        }
      case .output(let output):
        var columns = ""
        for (position, name) in output.relation.columns.enumerated() {
          columns += (position == 0 ? "" : ", ") + dialect.quote(name)
        }
        let query = "SELECT \(columns) FROM \(dialect.quote(output.relation.name)) ORDER BY \(row)"
        text += "-- \(output.node.controlEscaped)\n"
        if dialect == .trino {
          text += "WITH\n  " + ctes.joined(separator: ",\n  ") + "\n" + query + ";\n"
          continue
        }
        switch (output.format, dialect) {
        case (.rows, _), (_, .postgres):
          if case .rows = output.format {
          } else {
            text += "-- writes \(output.path.controlEscaped): save this result there\n"
          }
          text += query + ";\n"
        case (.csv(let delimiter), .duckdb):
          text +=
            "COPY (\(query)) TO \(dialect.literal(output.path)) (FORMAT CSV, HEADER true, DELIMITER \(dialect.literal(delimiter)));\n"
        case (.json, .duckdb):
          text += "COPY (\(query)) TO \(dialect.literal(output.path)) (FORMAT JSON, ARRAY true);\n"
        case (.csv(let delimiter), .spark):
          text +=
            "INSERT OVERWRITE DIRECTORY \(dialect.literal(output.path)) USING csv OPTIONS (header 'true', sep \(dialect.literal(delimiter)))\n  \(query);\n"
        case (.json, .spark):
          text += "INSERT OVERWRITE DIRECTORY \(dialect.literal(output.path)) USING json\n  \(query);\n"
        case (.parquet(let compression, let rowGroupRows), .duckdb),
          (.parquet(let compression, let rowGroupRows), .spark):
          text += SQLCompiler.parquetOutput(
            dialect, query: query, path: output.path, compression: compression, rowGroupRows: rowGroupRows)
        default:
          text += query + ";\n"
        }
      }
    }
    return text
  }
}
