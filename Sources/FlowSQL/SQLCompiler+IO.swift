import FlowNodes
import FlowRuntime

/// Readers and writers. A reader's column names and types are those flow reads from the file
/// (the node is evaluated through the registry's file-access policy, so what is allowed to
/// `flow run` is what is read here), written out explicitly in the script.
extension SQLCompiler {
  mutating func source(_ node: FlowNode, _ format: SQLForm.FileFormat) throws(SQLExportError) -> SQLRelation {
    let table = try readTable(node, format)
    let columns = table.columnNames
    let types = table.columns.map { SQLType($0.type) }
    let path = try plainPath(node, node.data.params["path"]?.stringValue ?? "")
    let isCSV = format == .csv
    let parsed = isCSV ? SQLSourceCSV(node.data.params) : nil
    // The cast of each text column to its type (CSV files are read as text, then typed). DuckDB
    // reads every null token itself; the other engines read one (the empty cell), so the view
    // maps the others to null.
    let tokens = (parsed?.nullValues ?? []).filter { !$0.isEmpty }
    let tokenList = tokens.map(dialect.literal).joined(separator: ", ")
    func typed(_ name: String, _ type: SQLType) -> String {
      let cell =
        dialect == .duckdb || tokens.isEmpty
        ? q(name) : "CASE WHEN \(q(name)) IN (\(tokenList)) THEN NULL ELSE \(q(name)) END"
      switch type {
      case .string, .null: return cell == q(name) ? cell : "\(cell) AS \(q(name))"
      case .integer, .number: return "CAST(trim(\(cell)) AS \(dialect.typeName(type))) AS \(q(name))"
      case .bool: return "CAST(\(cell) AS BOOLEAN) AS \(q(name))"
      }
    }
    var typedList = ""
    for (name, type) in zip(columns, types) { typedList += ", " + (isCSV ? typed(name, type) : q(name)) }
    switch dialect {
    case .duckdb:
      var spec = ""
      for (position, name) in columns.enumerated() {
        let type = isCSV ? "VARCHAR" : dialect.typeName(types[position])
        spec += (position == 0 ? "" : ", ") + "\(dialect.literal(name)): '\(type)'"
      }
      let reader: String
      if let csv = parsed {
        let nulls = csv.nullValues.map(dialect.literal).joined(separator: ", ")
        reader =
          "read_csv(\(dialect.literal(path)), header = \(csv.header), delim = \(dialect.literal(csv.delimiter)), quote = '\"', escape = '\"', auto_detect = false, all_varchar = true, allow_quoted_nulls = false, nullstr = [\(nulls)], columns = {\(spec)})"
      } else {
        reader = "read_json(\(dialect.literal(path)), format = 'array', columns = {\(spec)})"
      }
      return add(node.id, "SELECT row_number() OVER () AS \(row)\(typedList) FROM \(reader)", columns, types)
    case .spark:
      let file = helperName(node.id)
      var schema = ""
      for (position, name) in columns.enumerated() {
        schema += (position == 0 ? "" : ", ") + "\(q(name)) \(isCSV ? "STRING" : dialect.typeName(types[position]))"
      }
      if let csv = parsed {
        addRaw(
          "CREATE OR REPLACE TEMPORARY VIEW \(q(file)) (\(schema)) USING csv OPTIONS (path \(dialect.literal(path)), header '\(csv.header)', sep \(dialect.literal(csv.delimiter)), quote '\"', escape '\"', multiLine 'true', nullValue '', enforceSchema 'true', ignoreLeadingWhiteSpace 'false', ignoreTrailingWhiteSpace 'false')"
        )
      } else {
        addRaw(
          "CREATE OR REPLACE TEMPORARY VIEW \(q(file)) (\(schema)) USING json OPTIONS (path \(dialect.literal(path)), multiLine 'true')"
        )
      }
      return add(node.id, "SELECT monotonically_increasing_id() AS \(row)\(typedList) FROM \(q(file))", columns, types)
    case .postgres, .trino:
      // The engine reads tables: a table named by the node id holds the file's rows, with
      // their file order in the row-number column (text columns for a CSV file).
      let table = SQLExporter.sourceTable(node.id)
      if dialect == .postgres, let csv = parsed {
        // psql loads the file into a fresh table, numbering its rows in file order.
        var definition = "\(row) BIGSERIAL"
        for name in columns { definition += ", \(q(name)) TEXT" }
        addRaw("DROP TABLE IF EXISTS \(q(table)) CASCADE")
        addRaw("CREATE TEMPORARY TABLE \(q(table)) (\(definition))")
        let names = columns.map(q).joined(separator: ", ")
        addRaw(
          "\\copy \(q(table)) (\(names)) FROM \(dialect.literal(path)) WITH (FORMAT csv, HEADER \(csv.header), DELIMITER \(dialect.literal(csv.delimiter)), NULL '')"
        )
      } else {
        addRaw(
          "-- the table \(q(table)) holds the rows of \(path.controlEscaped)\(isCSV ? " (as text)" : ""), their file order in \(row)"
        )
      }
      return add(node.id, "SELECT \(row)\(typedList) FROM \(q(table))", columns, types)
    }
  }

  /// `path`, when one plain literal of the dialect can carry it (psql's `\copy … FROM 'file'`,
  /// `COPY … TO 'file'` and Spark's `OPTIONS (path …)` take no expression).
  func plainPath(_ node: FlowNode, _ path: String) throws(SQLExportError) -> String {
    guard let problem = dialect.plainLiteralProblem(path) else { return path }
    throw SQLExportError(node: node.id, "param 'path' \(problem)")
  }

  /// The table the reader gives, read now through the registry's file-access policy.
  func readTable(_ node: FlowNode, _ format: SQLForm.FileFormat) throws(SQLExportError) -> Table {
    var reader = node
    reader.data.params["watch"] = nil
    let document = FlowDocument(nodes: [reader])
    var evaluator: GraphEvaluator
    do { evaluator = try GraphEvaluator(validating: document, registry: registry) } catch {
      throw SQLExportError(node: node.id, "\(error)")
    }
    _ = evaluator.evaluate()
    if let failure = evaluator.failure(of: node.id) {
      throw SQLExportError(node: node.id, "cannot read the file to infer its column types: \(failure)")
    }
    let port = format == .json ? "value" : "table"
    guard case .table(let table)? = evaluator.value(of: node.id, port: port) else {
      throw SQLExportError(node: node.id, "the file is not a JSON array of objects (only tables export)")
    }
    return table
  }

  mutating func writer(_ node: FlowNode, _ written: SQLForm.FileFormat, _ input: SQLRelation) throws(SQLExportError)
    -> SQLRelation?
  {
    guard let pathText = node.data.params["path"]?.stringValue else {
      throw SQLExportError(node: node.id, "param 'path' is missing")
    }
    let path = try plainPath(node, pathText)
    let format: SQLOutput.Format
    switch written {
    case .csv: format = .csv(delimiter: node.data.params["delimiter"]?.stringValue ?? ",")
    case .parquet: format = try parquetFormat(node)
    case .json: format = .json
    }
    addOutput(SQLOutput(node: node.id, format: format, path: path, relation: input))
    return nil
  }
}

extension SQLExporter {
  /// The table a Postgres or Trino script reads a reader node's rows from.
  public static func sourceTable(_ id: String) -> String { id + "~source" }
}

/// The params of `readCSV` that the script's reader needs.
struct SQLSourceCSV {
  var delimiter: String
  var header: Bool
  var nullValues: [String]

  init(_ params: JSONObject) {
    delimiter = params["delimiter"]?.stringValue ?? ","
    header = params["header"].map { $0 != .bool(false) } ?? true
    nullValues = params["nullValues"]?.arrayValue?.compactMap(\.stringValue) ?? ["", "NA", "N/A", "NaN", "null"]
  }
}
