import FlowRuntime

/// `rowCount`: the number of rows of its table.
struct RowCountNode: StaticNodeKind {
  var name: String { "rowCount" }
  var summary: String { "count = the number of rows of table" }
  var inputs: [InputPort] { [InputPort("table", .table, default: .null)] }
  var outputs: [PortDeclaration] { [PortDeclaration("count", .integer)] }

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    outputs[0] = .integer(Int64(try inputs.table(0).rowCount))
  }
}

extension RowCountNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.scalarOrList) }
}
