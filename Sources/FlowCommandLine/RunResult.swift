import FlowGraph
import FlowRuntime

/// The outputs and errors `flow run` prints, in text or JSON (Reference.md, "The `flow` command line").
///
/// `package` so that `flow-bench` can measure the writers' linearity (W11).
package struct RunResult {
  /// The shown nodes that did not fail, sorted by id, each with its ports sorted by name.
  var outputs: [(node: String, ports: [(port: String, value: Value)])] = []
  /// Every failed node of the graph with its message, but for failures a lazy node caught
  /// (`fallback`), which reach no printed node.
  var errors: [String: String]

  package init(evaluator: GraphEvaluator, nodes: [String]) {
    errors = evaluator.uncaughtFailures(reaching: nodes)
    var seen = Set<String>()
    seen.reserveCapacity(nodes.count)
    for id in nodes where errors[id] == nil && seen.insert(id).inserted {
      if var ports = evaluator.portValues(of: id), !ports.isEmpty {
        ports.sort { $0.port < $1.port }
        outputs.append((id, ports))
      }
    }
    outputs.sort { $0.node < $1.node }
  }

  /// `<node>.<port> = <value>` lines, sorted by node then port, then `<node> ! <message>` lines.
  package func text() -> String {
    var text = ""
    for (node, ports) in outputs {
      for (port, value) in ports {
        text += Self.line(node: node, port: port, value: value, tableRows: tableRows, schemaOnly: schemaOnly)
        text += "\n"
      }
    }
    for line in errorLines() {
      text += line
      text += "\n"
    }
    return text
  }

  /// Whether text output lists every failed node (`--all`) rather than the nodes that failed by
  /// themselves and a count of those skipped downstream.
  var listsEveryFailure = false

  /// The rows of each table text output prints (`--head`).
  var tableRows = RunTableOptions.defaultHead

  /// Whether tables print as their columns and types only (`--schema`), in text and JSON.
  var schemaOnly = false

  /// `<node> ! <message>` for each node that failed by itself; the nodes skipped because of an
  /// upstream failure are summed up in one line (`3 nodes failed, 86,906 skipped downstream`)
  /// unless `listsEveryFailure`.
  func errorLines() -> [String] {
    let sorted = errors.keys.sorted()
    if listsEveryFailure { return sorted.map { Self.errorLine(node: $0, message: errors[$0]!) } }
    let roots = sorted.filter { !errors[$0]!.hasPrefix("upstream error from ") }
    let skipped = errors.count - roots.count
    var lines = roots.map { Self.errorLine(node: $0, message: errors[$0]!) }
    if skipped > 0 {
      lines.append(
        "\(Self.grouped(roots.count)) node\(roots.count == 1 ? "" : "s") failed, \(Self.grouped(skipped)) skipped downstream"
      )
    }
    return lines
  }

  /// `86906` as `86,906`.
  static func grouped(_ number: Int) -> String {
    let digits = Array(String(number.magnitude))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return (number < 0 ? "-" : "") + text
  }

  /// `<node>.<port> = <value>` with the value's text form (strings unquoted); a table follows
  /// on the next lines as an indented grid. Control characters in the id, port and value are
  /// escaped (`String.controlEscaped`: a line break in a string as `\n`, ESC as `\u001B`), so
  /// each output is one line and a document cannot send terminal escapes.
  static func line(
    node: String, port: String, value: Value, tableRows: Int = RunTableOptions.defaultHead,
    schemaOnly: Bool = false
  ) -> String {
    if case .table(let table) = value {
      let header =
        "\(node.controlEscaped).\(port.controlEscaped) = table (\(table.rowCount) rows × \(table.columnCount) columns)"
      if schemaOnly { return table.columnCount == 0 ? header : header + "\n" + RunTableOptions.schemaText(table) }
      return header + "\n"
        + table.text(maxRows: tableRows).split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        .joined(separator: "\n")
    }
    return "\(node.controlEscaped).\(port.controlEscaped) = \(value.text.controlEscaped)"
  }

  /// `<node> ! <message>`, control characters escaped.
  static func errorLine(node: String, message: String) -> String {
    "\(node.controlEscaped) ! \(message.controlEscaped)"
  }

  /// `value` as JSON: a table as its schema with `--schema`.
  func jsonValue(_ value: Value) -> JSONValue {
    if schemaOnly, case .table(let table) = value { return RunTableOptions.schemaJSON(table) }
    return value.jsonValue
  }

  /// `{"outputs": {node: {port: value}}, "errors": {node: message}}`, plus `"report"` if given.
  package func json(report: JSONValue? = nil) -> String {
    // Keys are sorted here rather than by the writer, so a table's row objects keep their
    // column order (Reference.md, "Values and types"). Members are built as arrays (keys are unique): keyed insertion
    // into a `JSONObject` is a linear search per key, quadratic over 100,000 nodes.
    let outputObject = JSONObject(
      outputs.map { node, ports in
        JSONMember(
          key: node, value: .object(JSONObject(ports.map { JSONMember(key: $0.port, value: jsonValue($0.value)) })))
      })
    let errorObject = JSONObject(
      errors.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: .string($0.value)) })
    var rootObject: JSONObject = ["errors": .object(errorObject), "outputs": .object(outputObject)]
    if let report { rootObject["report"] = report }  // after "outputs": the keys stay sorted
    return JSONValue.object(rootObject).serialized(options: [.prettyPrinted]) + "\n"
  }
}
