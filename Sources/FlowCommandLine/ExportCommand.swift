import FlowNodes
import FlowRuntime
import FlowSQL

/// `flow export FILE --sql`: the table part of a graph as one SQL script (Reference.md, "SQL export",
/// `Documentation/Export.md`). Exit 0 with the script; 2 for an invalid document; 1 when a
/// node cannot be exported (the message names it and why).
enum ExportCommand {
  static let spec = CommandSpec(
    name: "export",
    summary: "Compile the table part of a saved graph into a SQL script (DuckDB, Spark, Trino, Postgres).",
    positionals: ["FILE"],
    options: [
      OptionSpec(name: "--sql", arity: .flag, help: "write SQL (the only export format)"),
      OptionSpec(
        name: "--dialect", arity: .single, valueName: "NAME", help: "duckdb (default), spark, trino or postgres",
        choices: SQLDialect.allCases.map(\.rawValue)),
      OptionSpec(
        name: "--node", arity: .repeated, valueName: "ID",
        help: "export only what this node needs (a writer writes; another table node ends in a SELECT)"),
      OptionSpec(
        name: "-o", arity: .single, valueName: "FILE", help: "write the script to FILE (atomically) instead of stdout"),
      InlinedNodesOption.spec,
      OptionSpec(
        name: "--allow-read", arity: .repeated, valueName: "DIR",
        help: "let reader nodes read inside DIR too, to infer column types (default: the document's folder only)")
    ],
    positionalHelp: ["the saved graph (- reads standard input)"])

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String) throws(CommandFailure)
    -> ExitStatus
  {
    guard arguments.has("--sql") else {
      throw CommandFailure(.usage, ["flow: export needs --sql (the only export format)"])
    }
    let file = arguments.positionals[0]
    let dialect = SQLDialect(rawValue: arguments.value("--dialect") ?? "duckdb") ?? .duckdb
    try InlinedNodesOption.apply(arguments)
    let written = try DocumentLoading.document(file)
    // Subgraph instances export as their inlined nodes (CTEs named by inner path, `inst/node`).
    let document = try DocumentLoading.validateExpanding(written, registry: context.registry, file: file).expanded.flat
    let ids = Set(document.nodes.map(\.id))
    let chosen = arguments.all("--node")
    for id in chosen where !ids.contains(id) {
      let hint = Suggestion.hint(for: id, among: document.nodes.map(\.id))
      throw CommandFailure(
        .usage, ["flow: --node: there is no node '\(id.controlEscaped)' in \(file.controlEscaped)\(hint)"])
    }
    let registry = try RunCommand.environment(for: file, arguments, context.registry)
    let script: String
    do { script = try SQLExporter(registry: registry, dialect: dialect).script(for: document, nodes: chosen) } catch {
      // One line per node that cannot be exported; each escapes its control characters.
      throw CommandFailure(.nodeFailed, error.all.map { "flow: cannot export to \(dialect.rawValue): \($0)" })
    }
    if let path = arguments.value("-o") {
      do { try AtomicFileWriter().write(Array(script.utf8), to: FileAccessPolicy.absolutePath(path)) } catch {
        throw CommandFailure(.usage, ["flow: -o: \(error)"])
      }
      return .success
    }
    output = script
    return .success
  }
}
