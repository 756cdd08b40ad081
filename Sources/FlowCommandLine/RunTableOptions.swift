import FlowGraph
import FlowNodes
import FlowRuntime

/// How `flow run` shows tables: `--head N` rows of each table in text (default 20),
/// `--schema` (a table's columns and types instead of its rows), `--format csv` (the one printed
/// table as CSV on stdout).
///
/// Invariants: `head >= 0`; `csv` excludes `schemaOnly`, `--live` and `--report` (stdout holds the
/// CSV and nothing else).
struct RunTableOptions {
  /// The rows of each table `flow run` prints in text unless `--head` says otherwise.
  static let defaultHead = 20

  var head = defaultHead
  var schemaOnly = false
  var csv = false

  static let specs: [OptionSpec] = [
    OptionSpec(name: "--head", arity: .single, valueName: "N", help: "text: print N rows of each table (default 20)"),
    OptionSpec(name: "--schema", arity: .flag, help: "print each table's columns and types instead of its rows")
  ]

  /// Parses `--head`, `--schema` and `--format csv`.
  ///
  /// - Throws: a usage failure for a `--head` that is not a whole number ≥ 0, or for CSV output
  ///   combined with `--schema`, `--live` or `--report`.
  init(_ arguments: ParsedArguments) throws(CommandFailure) {
    if let text = arguments.value("--head") {
      guard let rows = Int(text), rows >= 0 else {
        throw CommandFailure(.usage, ["flow: --head expects a whole number of rows ≥ 0, got '\(text)'"])
      }
      head = rows
    }
    schemaOnly = arguments.has("--schema")
    csv = arguments.value("--format") == "csv"
    if csv {
      for option in ["--schema", "--live", "--report"] where arguments.has(option) {
        throw CommandFailure(.usage, ["flow: --format csv prints one table and nothing else; it cannot take \(option)"])
      }
    }
  }

  /// The CSV of the one table among `result`'s outputs (the writer's quoting: `writeCSV`'s bytes).
  ///
  /// - Throws: a usage failure naming the printed tables when there is not exactly one (use
  ///   `--node ID` to choose); a node failure listing the failed nodes (on stderr: stdout holds
  ///   only CSV).
  static func csv(_ result: RunResult) throws(CommandFailure) -> String {
    let tables = result.outputs.flatMap { node, ports in
      ports.compactMap { port, value -> (String, Table)? in
        if case .table(let table) = value { return ("\(node).\(port)", table) }
        return nil
      }
    }
    guard tables.count == 1 else {
      if !result.errors.isEmpty { throw CommandFailure(.nodeFailed, result.errorLines()) }
      let names = tables.prefix(10).map { "'\($0.0)'" }.joined(separator: ", ")
      let found = tables.isEmpty ? "no table" : "\(tables.count) tables (\(names)\(tables.count > 10 ? ", …" : ""))"
      throw CommandFailure(
        .usage,
        [
          "flow: --format csv prints exactly one table, and the printed nodes have \(found); choose one with --node ID"
        ])
    }
    if !result.errors.isEmpty { throw CommandFailure(.nodeFailed, result.errorLines()) }
    do {
      return String(decoding: try tables[0].1.csvBytes(), as: UTF8.self)
    } catch {
      throw CommandFailure(.nodeFailed, ["flow: --format csv: \(error)"])
    }
  }

  /// `<node>.<port> = table (R rows × C columns)` then one `  name  type` line per column.
  static func schemaText(_ table: Table) -> String {
    let names = table.columnNames.map(\.controlEscaped)
    let width = names.map(\.count).max() ?? 0
    let lines = zip(names, table.columns).map { name, column in
      "  " + name + String(repeating: " ", count: width - name.count) + "  " + column.type.rawValue
    }
    return lines.joined(separator: "\n")
  }

  /// `{"rows": R, "columns": [{"name": …, "type": …}]}`: a table's schema in JSON.
  static func schemaJSON(_ table: Table) -> JSONValue {
    .object([
      "rows": .integer(Int64(table.rowCount)),
      "columns": .array(
        zip(table.columnNames, table.columns).map { name, column in
          .object(["name": .string(name), "type": .string(column.type.rawValue)])
        })
    ])
  }
}
