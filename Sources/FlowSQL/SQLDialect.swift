import FlowRuntime

/// The SQL engines `flow export --sql` writes for (Reference.md, "SQL export"). The dialect decides quoting,
/// literals, type names and the few functions whose spelling differs; the compiler and the
/// row-formula translator are shared.
public enum SQLDialect: String, Sendable, CaseIterable {
  /// DuckDB (the default): out of core on one machine; reads and writes the files itself.
  case duckdb
  /// Spark SQL (`spark-sql -f`): temporary views over the files, `INSERT OVERWRITE DIRECTORY`.
  case spark
  /// Trino: tables named by the reader nodes' ids, one final `SELECT` per output.
  case trino
  /// PostgreSQL: tables named by the reader nodes' ids, temporary views, a final `SELECT` per
  /// output; strings compared with `COLLATE "C"` (code points).
  case postgres

  /// The type name of a column type.
  func typeName(_ type: SQLType) -> String {
    switch (self, type) {
    case (_, .integer): "BIGINT"
    case (.postgres, .number): "DOUBLE PRECISION"
    case (_, .number): "DOUBLE"
    case (_, .bool): "BOOLEAN"
    case (.duckdb, .string), (.trino, .string): "VARCHAR"
    case (.spark, .string): "STRING"
    case (.postgres, .string), (.postgres, .null): "TEXT"
    case (.spark, .null): "STRING"
    case (_, .null): "VARCHAR"
    }
  }

  /// An integer literal typed as a 64-bit integer (so literal arithmetic overflows as flow's does).
  func integerLiteral(_ value: Int64) -> String {
    switch self {
    case .duckdb, .postgres: value < 0 ? "(\(value))::BIGINT" : "\(value)::BIGINT"
    case .spark: value < 0 ? "(\(value)L)" : "\(value)L"
    case .trino: "BIGINT '\(value)'"
    }
  }

  /// A number literal typed as a double.
  func numberLiteral(_ value: Double) -> String {
    if value.isNaN { return cast("'NaN'", to: .number) }
    if value.isInfinite { return cast(value > 0 ? "'Infinity'" : "'-Infinity'", to: .number) }
    var text = "\(value)"
    if !text.contains("e") && !text.contains("E") { text += "E0" }
    let bare = text.hasPrefix("-") ? "(\(text))" : text
    switch self {
    case .spark, .trino: return bare
    case .duckdb, .postgres: return cast(bare, to: .number)
    }
  }

  /// `CAST(x AS type)`.
  func cast(_ sql: String, to type: SQLType) -> String { "CAST(\(sql) AS \(typeName(type)))" }

  /// A string expression compared or sorted by code point: `x COLLATE "C"` on Postgres.
  func collated(_ sql: String) -> String { self == .postgres ? "\(sql) COLLATE \"C\"" : sql }
}

extension String {
  /// Every occurrence of `target` replaced (a linear scan over the scalars).
  func replacingAll(_ target: Character, with replacement: String) -> String {
    guard contains(target) else { return self }
    var result = ""
    result.reserveCapacity(utf8.count + 8)
    for character in self { if character == target { result += replacement } else { result.append(character) } }
    return result
  }
}
