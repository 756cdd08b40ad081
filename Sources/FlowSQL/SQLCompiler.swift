import FlowNodes
import FlowRuntime

/// The compiler's state while it walks a ``SQLGraphPlan``: the statements so far and each
/// compiled node's relation. `compile(_:)` turns one node into statements
/// (`SQLCompiler+Tables.swift`, `+Join.swift`, `+IO.swift`).
struct SQLCompiler {
  let dialect: SQLDialect
  let registry: NodeKindRegistry
  let plan: SQLGraphPlan
  private(set) var statements: [SQLStatement] = []
  /// The relation of each compiled node, by node index.
  private(set) var relations: [SQLRelation?]
  /// The params each node compiles with (`boundParameters(_:)`), by node index; nil: as written.
  var parameters: [JSONObject?]
  /// Helper relations made so far (names `id~1`, `id~2`, …).
  private var helperCount = 0

  init(dialect: SQLDialect, registry: NodeKindRegistry, plan: SQLGraphPlan) {
    self.dialect = dialect
    self.registry = registry
    self.plan = plan
    relations = Array(repeating: nil, count: plan.nodes.count)
    parameters = Array(repeating: nil, count: plan.nodes.count)
  }

  var row: String { dialect.quote(SQLExporter.rowColumn) }
  func q(_ name: String) -> String { dialect.quote(name) }

  /// Compiles node `index` (its inputs are compiled).
  mutating func compile(_ index: Int) throws(SQLExportError) {
    var node = plan.nodes[index]
    if let bound = parameters[index] { node.data.params = bound }
    let id = node.id
    func fail(_ reason: String) -> SQLExportError { SQLExportError(node: id, reason) }
    if let problem = dialect.identifierProblem(id) { throw fail("its id \(problem)") }
    let relation: SQLRelation?
    switch node.data.kind {
    case NodeSpec.groupKind: return
    case _ where isConstant(node.data.kind) && !plan.isOutput[index]: return  // a constant input's value
    case SubgraphExpander.inputKind, SubgraphExpander.outputKind:
      // An inlined instance's boundary forwards its value: a table passes through unchanged
      // (the instance's inner nodes are CTEs named by their path, `instance/node`); a scalar
      // boundary (a threshold the instance sets) gives no table.
      guard plan.inputs[index].contains(where: { relations[$0.source] != nil }) else { return }
      relation = try input(index, "value")
    case SubgraphExpander.instanceKind:
      // The instance forwards what feeds its definition's `output` nodes, one port each.
      let tables = plan.inputs[index].filter { relations[$0.source] != nil }
      guard !tables.isEmpty else { return }
      guard tables.count == 1, let only = tables.first else {
        throw fail(
          "an instance with \(tables.count) table outputs has no SQL form (export each output's inner node with --node)"
        )
      }
      relation = relations[only.source]
    default:
      if let form = sqlForm(of: node.data.kind) {
        relation = try compile(form, index, node)
      } else {
        if let reason = noSQLForm(node) { throw fail(reason) }
        relation = try custom(index, node)
      }
    }
    guard let relation else { return }
    if let reserved = relation.columns.first(where: { $0.hasPrefix("__flow_") }) {
      throw fail(
        "the column '\(reserved)' has a name the export reserves (names starting with __flow_ carry row numbers)")
    }
    for column in relation.columns {
      if let problem = dialect.identifierProblem(column) { throw fail("the column '\(column)' \(problem)") }
    }
    relations[index] = relation
    let isBoundary = node.data.kind == SubgraphExpander.inputKind || node.data.kind == SubgraphExpander.outputKind
    if plan.isOutput[index], !isBoundary {
      statements.append(.output(SQLOutput(node: id, format: .rows, path: "", relation: relation)))
    }
  }

  /// The relation feeding `port` of node `index` (or its only input when the edge names no port).
  func input(_ index: Int, _ port: String) throws(SQLExportError) -> SQLRelation {
    let id = plan.nodes[index].id
    guard
      let edge = plan.inputs[index].first(where: { $0.port == port })
        ?? plan.inputs[index].first(where: { $0.port == nil })
    else {
      throw SQLExportError(node: id, "input '\(port)' is not connected")
    }
    guard let relation = relations[edge.source] else {
      throw SQLExportError(node: id, "input '\(port)' comes from '\(plan.nodes[edge.source].id)', which gives no table")
    }
    return relation
  }

  /// Adds the relation `name` = `select` and gives it.
  mutating func add(_ name: String, _ select: String, _ columns: [String], _ types: [SQLType]) -> SQLRelation {
    statements.append(.relation(name: name, select: select))
    return SQLRelation(name: name, columns: columns, types: types)
  }

  mutating func addRaw(_ statement: String) { statements.append(.raw(statement)) }
  mutating func addOutput(_ output: SQLOutput) { statements.append(.output(output)) }

  /// A fresh name for a helper relation of node `id`, unused by any node.
  mutating func helperName(_ id: String) -> String {
    while true {
      helperCount += 1
      let name = "\(id)~\(helperCount)"
      if !plan.ids.contains(name) { return name }
    }
  }

  /// `"a", "b", …` of `relation`'s columns (optionally qualified by `alias`).
  func columnList(_ relation: SQLRelation, alias: String? = nil) -> String {
    var text = ""
    let prefix = alias.map { q($0) + "." } ?? ""
    for (position, name) in relation.columns.enumerated() {
      if position > 0 { text += ", " }
      text += prefix + q(name)
    }
    return text
  }

  /// The strings of a list param.
  func strings(_ id: String, _ params: JSONObject, _ name: String) throws(SQLExportError) -> [String] {
    guard let value = params[name] else { return [] }
    guard let items = value.arrayValue else {
      throw SQLExportError(node: id, "param '\(name)' must be a list of names")
    }
    var result: [String] = []
    for item in items {
      guard let text = item.stringValue else {
        throw SQLExportError(node: id, "param '\(name)' must be a list of names")
      }
      result.append(text)
    }
    return result
  }

  /// The error for a column `relation` lacks.
  func missing(_ id: String, _ column: String, _ relation: SQLRelation) -> SQLExportError {
    let listing = relation.columns.prefix(20).joined(separator: ", ")
    return SQLExportError(
      node: id, "no column '\(column)' in the table (columns: \(listing)\(relation.columns.count > 20 ? ", …" : ""))")
  }

  /// The form the registry's kind of that name declares (``SQLRelationalKind``), if any.
  func sqlForm(of kind: String) -> SQLForm? { (registry.kind(named: kind) as? any SQLRelationalKind)?.sqlForm }

  /// Why `node`'s kind has no SQL form (a live, scalar or text kind, or a kind without a
  /// translation), or nil when it may have one.
  func noSQLForm(_ node: FlowNode) -> String? {
    let kind = node.data.kind
    switch kind {
    case NodeSpec.groupKind, SubgraphExpander.inputKind, SubgraphExpander.outputKind, SubgraphExpander.instanceKind:
      return nil
    default:
      guard let found = registry.kind(named: kind) else { return "unknown kind '\(kind)'" }
      if let form = (found as? any SQLRelationalKind)?.sqlForm {
        guard case .none(let refusal) = form else { return nil }
        return refusal.reason(kind)
      }
      guard found is any SQLTranslatable else {
        return "kind '\(kind)' has no SQL translation (a custom kind can provide one: SQLTranslatable)"
      }
      return nil
    }
  }

  /// A custom kind's translation (``SQLTranslatable``), or the error saying it has none.
  mutating func custom(_ index: Int, _ node: FlowNode) throws(SQLExportError) -> SQLRelation {
    guard let kind = registry.kind(named: node.data.kind) else {
      throw SQLExportError(node: node.id, "unknown kind '\(node.data.kind)'")
    }
    guard let translatable = kind as? any SQLTranslatable else {
      throw SQLExportError(
        node: node.id,
        "kind '\(node.data.kind)' has no SQL translation (a custom kind can provide one: SQLTranslatable)")
    }
    var inputs: [SQLTranslationRequest.Input] = []
    for edge in plan.inputs[index] {
      // A fed param is in the bound params (`boundParameters(_:)`), not an input of the translation.
      if relations[edge.source] == nil, let port = edge.port,
        registry.kind(named: node.data.kind)?.parameters.contains(where: { $0.name == port }) == true
      {
        continue
      }
      guard let relation = relations[edge.source] else {
        throw SQLExportError(node: node.id, "input from '\(plan.nodes[edge.source].id)' gives no table")
      }
      inputs.append(
        .init(relation: q(relation.name), columns: zip(relation.columns, relation.types).map { ($0, $1.columnType) }))
    }
    let dialect = self.dialect
    let request = SQLTranslationRequest(
      dialect: dialect.rawValue, parameters: node.data.params, inputs: inputs,
      rowColumn: row, quote: { dialect.quote($0) }, literal: { dialect.literal($0) })
    let translation: SQLTranslation
    do { translation = try translatable.sqlTranslation(request) } catch {
      throw SQLExportError(node: node.id, "\(error)")
    }
    return add(
      node.id, translation.select, translation.columns.map(\.name), translation.columns.map { SQLType($0.type) })
  }
}
