import FlowRuntime

/// `writeCSV`: writes its table to `path` atomically (see `CSVWriter`); outputs the absolute
/// path written and the number of rows.
struct WriteCSVNode: NodeKind {
  var name: String { "writeCSV" }
  var summary: String { "writes the table to path as CSV, atomically; path = where, rows = how many" }
  var parameters: [ParameterDeclaration] {
    FileParameter.writerDeclarations + [
      ParameterDeclaration("delimiter", .string, default: .string(","), summary: "one ASCII character")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    var writer = CSVWriter()
    writer.delimiter = try ReadCSVNode.delimiter(parameters)
    return NodeInstance(
      inputs: [InputPort("table", .table, default: .null)],
      outputs: [PortDeclaration("path", .string), PortDeclaration("rows", .integer)],
      evaluator: Evaluator(file: FileParameter(parameters), writer: writer, workers: parameters.environment.workers),
      cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let file: FileParameter
    let writer: CSVWriter
    /// The run's threads (`EvaluationEnvironment.workers`).
    let workers: Int

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let table = try inputs.table(0)
      // Large tables are formatted in morsels on the workers (see `MorselWriter`).
      let path = try file.write { emit in
        try MorselWriter.csv(table, writer: writer, morsels: TableMorsels(workers: workers), emit)
      }
      outputs[0] = .string(path)
      outputs[1] = .integer(Int64(table.rowCount))
    }
  }
}

extension WriteCSVNode: SQLRelationalKind {
  var sqlForm: SQLForm { .write(.csv) }
}

extension WriteCSVNode: MorselSinkKind {
  var streamedEnd: StreamedChain.End { .writeCSV }
  func streams(_ spec: NodeSpec) -> Bool { true }
}
