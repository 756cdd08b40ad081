import FlowRuntime

/// `select`: keeps the listed columns, in the listed order; `"old as new"` renames.
struct SelectNode: RowLocalKind {
  var name: String { "select" }
  var summary: String { "table = the listed columns of table, in that order (\"old as new\" renames)" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("columns", .list, required: true, summary: "column names; \"old as new\" renames")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let entries = try TableParameters.strings(parameters, "columns")
    let pairs = entries.map { entry -> (source: String, name: String) in
      guard let range = entry.range(of: " as ") else { return (entry, entry) }
      return (String(entry[..<range.lowerBound]).trimmingSpaces, String(entry[range.upperBound...]).trimmingSpaces)
    }
    var seen = Set<String>()
    for pair in pairs where !seen.insert(pair.name).inserted {
      throw NodeConfigurationError(parameter: "columns", reason: "names the output column '\(pair.name)' twice")
    }
    return NodeInstance(
      inputs: [InputPort("table", .table, default: .null)], outputs: [PortDeclaration("table", .table)],
      evaluator: Evaluator(pairs: pairs))
  }

  struct Evaluator: NodeEvaluator {
    let pairs: [(source: String, name: String)]

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let table = try inputs.table(0)
      var indices: [Int] = []
      for pair in pairs { indices.append(try TableParameters.column(pair.source, in: table)) }
      do { outputs[0] = .table(try table.selecting(indices, as: pairs.map(\.name))) } catch {
        throw TableParameters.failure(error)
      }
    }
  }
}

extension SelectNode: SQLRelationalKind {
  var sqlForm: SQLForm { .select }
}
