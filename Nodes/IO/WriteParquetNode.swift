import FlowRuntime

/// `writeParquet`: writes its table to `path` as a flat Parquet file, atomically (see
/// `ParquetWriter`); outputs the absolute path written and the number of rows.
struct WriteParquetNode: NodeKind {
  var name: String { "writeParquet" }
  var summary: String {
    "writes the table to path as Parquet (as DuckDB, polars and pyarrow read it), atomically; path = where, rows = how many"
  }
  var parameters: [ParameterDeclaration] {
    FileParameter.writerDeclarations + [
      ParameterDeclaration(
        "compression", .string, default: .string("snappy"), summary: "snappy, zstd, gzip, lz4 or none"),
      ParameterDeclaration(
        "rowGroupRows", .integer, default: .integer(1_048_576), summary: "rows per row group (at least 1)"),
      ParameterDeclaration(
        "pageVersion", .integer, default: .integer(1),
        summary: "data pages v1 (every reader) or 2 (levels uncompressed)")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let name = parameters.string("compression") ?? "snappy"
    guard let compression = ParquetWriter.Compression(rawValue: name) else {
      throw NodeConfigurationError(
        parameter: "compression", reason: "must be snappy, zstd, gzip, lz4 or none, found \"\(name)\"")
    }
    let pageVersion = parameters.integer("pageVersion") ?? 1
    guard pageVersion == 1 || pageVersion == 2 else {
      throw NodeConfigurationError(parameter: "pageVersion", reason: "must be 1 or 2, found \(pageVersion)")
    }
    let rows = parameters.integer("rowGroupRows") ?? 1_048_576
    guard rows >= 1, rows <= Int64(ParquetWriter.maximumRowGroupRows) else {
      throw NodeConfigurationError(
        parameter: "rowGroupRows", reason: "must be 1…\(ParquetWriter.maximumRowGroupRows), found \(rows)")
    }
    let file = FileParameter(parameters)
    guard !file.isGzip else {
      throw NodeConfigurationError(
        parameter: "path",
        reason: "a Parquet file compresses its pages itself (the compression param); the path must not end in .gz")
    }
    var writer = ParquetWriter(compression: compression, rowGroupRows: Int(rows), pageVersion: Int(pageVersion))
    writer.workers = parameters.environment.workers
    return NodeInstance(
      inputs: [InputPort("table", .table, default: .null)],
      outputs: [PortDeclaration("path", .string), PortDeclaration("rows", .integer)],
      evaluator: Evaluator(file: file, writer: writer),
      cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let file: FileParameter
    let writer: ParquetWriter

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let table = try inputs.table(0)
      let path: String
      do {
        path = try file.write { emit in try writer.write(table, emit) }
      } catch let error as ParquetError {
        throw NodeError("\(file.path): \(error.message)")
      }
      outputs[0] = .string(path)
      outputs[1] = .integer(Int64(table.rowCount))
    }
  }
}

extension WriteParquetNode: SQLRelationalKind {
  var sqlForm: SQLForm { .write(.parquet) }
}
