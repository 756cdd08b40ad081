import FlowRuntime

/// `column`: one column of its table as a list (nulls included).
struct ColumnNode: NodeKind {
  var name: String { "column" }
  var summary: String { "values = the column called name, as a list" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("name", .string, required: true, summary: "the column")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(
      inputs: [InputPort("table", .table, default: .null)], outputs: [PortDeclaration("values", .list)],
      evaluator: Evaluator(column: parameters.string("name") ?? ""))
  }

  struct Evaluator: NodeEvaluator {
    let column: String

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let table = try inputs.table(0)
      outputs[0] = .list(table.column(at: try TableParameters.column(column, in: table)).values)
    }
  }
}

extension ColumnNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.scalarOrList) }
}
