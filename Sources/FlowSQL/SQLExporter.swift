import FlowNodes
import FlowRuntime

/// Compiles the table part of a validated graph into one SQL script for a dialect (Reference.md, "SQL export",
/// `flow export --sql`): each node a named relation (its id, quoted), readers as the dialect's
/// source with the column types `readCSV` infers, writers as the dialect's output statement.
///
/// ```swift
/// let exporter = SQLExporter(registry: registry, dialect: .duckdb)
/// let script = try exporter.script(for: document, nodes: ["saveCSV"])
/// ```
///
/// Flow's row order is carried explicitly: every relation has a row-number column
/// (``rowColumn``) and every output orders by it. The compiler visits the needed nodes once in
/// topological order and builds each statement from its own params and its inputs' column
/// lists, so it is linear in the graph.
public struct SQLExporter: Sendable {
  /// The column that carries flow's row order in every relation.
  public static let rowColumn = "__flow_row"

  /// The kinds (custom ones may be ``SQLTranslatable``) and the environment reader nodes read
  /// their files in (the document's folder and the file-access policy), to infer column types.
  public var registry: NodeKindRegistry
  public var dialect: SQLDialect

  public init(registry: NodeKindRegistry, dialect: SQLDialect = .duckdb) {
    self.registry = registry
    self.dialect = dialect
  }

  /// The script for `document`, a graph that has passed validation.
  ///
  /// - Parameter nodes: the nodes whose results the script gives (writers write their file,
  ///   other table nodes end in a final `SELECT`); empty: every node of the graph must export,
  ///   and the script gives the writers and the table nodes nothing consumes.
  /// - Throws: ``SQLExportError`` naming every needed node whose kind has no SQL form (live,
  ///   scalar and text kinds, kinds without a translation) or whose fed param or `@name` is not
  ///   a constant (see `SQLCompiler+Constants.swift`) at once, or else the first node (in
  ///   topological order) that cannot be exported and why.
  public func script(for document: FlowDocument, nodes chosen: [String] = []) throws(SQLExportError) -> String {
    let plan = try SQLGraphPlan(document, chosen: chosen)
    var compiler = SQLCompiler(dialect: dialect, registry: registry, plan: plan)
    var formless: [SQLExportError] = []
    for index in plan.order {
      let node = plan.nodes[index]
      // A constant feeding a param or an `@name` is written into its consumer as a literal.
      if compiler.isConstant(node.data.kind) && !plan.isOutput[index] { continue }
      if let reason = compiler.noSQLForm(node) {
        formless.append(SQLExportError(node: node.id, reason))
        continue
      }
      do { compiler.parameters[index] = try compiler.boundParameters(index) } catch { formless.append(error) }
    }
    if var first = formless.first {
      first.others = Array(formless.dropFirst())
      throw first
    }
    for index in plan.order { try compiler.compile(index) }
    return SQLScriptWriter(dialect: dialect, statements: compiler.statements, nodeCount: plan.order.count).script
  }
}
