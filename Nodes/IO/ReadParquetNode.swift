import FlowRuntime

/// `readParquet`: the flat Parquet file at `path` as a table (see `ParquetReader` for what is
/// read and how types convert).
struct ReadParquetNode: MorselSourceKind {
  var name: String { "readParquet" }
  var summary: String {
    "table = the Parquet file at path (flat columns; types, nulls and codecs as pyarrow reads them)"
  }
  var parameters: [ParameterDeclaration] {
    [
      FileParameter.declaration,
      ParameterDeclaration(
        "columns", .list, default: nil,
        summary: "only these columns, in the file's order (default all; flow run sets it to what the graph reads)")
    ]
      + FileWatch.declarations
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    var reader = ParquetReader(limits: parameters.environment.limits)
    reader.workers = parameters.environment.workers
    if let wanted = try parameters.columnNames() { reader.columns = wanted }
    let file = FileParameter(parameters)
    let evaluator = Evaluator(file: file, reader: reader)
    return NodeInstance(
      inputs: [], outputs: [PortDeclaration("table", .table)], evaluator: evaluator, cost: .expensive,
      live: try FileWatch.behavior(parameters, evaluator: evaluator, outputCount: 1, file: file))
  }

  struct Evaluator: NodeEvaluator {
    let file: FileParameter
    let reader: ParquetReader

    /// Reads the footer and the wanted column chunks by ranges of the opened file (a `.gz`
    /// file is decompressed whole first).
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      do {
        let source: ParquetSource
        if file.isGzip {
          source = .bytes(try file.read())
        } else {
          source = try ParquetSource.opened(try file.open(), progress: file.environment.progress)
        }
        outputs[0] = .table(try reader.read(source))
      } catch let error as ParquetError {
        throw NodeError("\(file.path): \(error.message)")
      } catch let error as FileAccessError {
        throw NodeError(error.message)
      }
    }
  }
}

extension ReadParquetNode: ColumnProjectingKind {
  func projecting(_ params: JSONObject, to columns: Set<String>) -> JSONObject? {
    guard params["columns"] == nil else { return nil }
    var projected = params
    projected["columns"] = .array(columns.sorted().map { .string($0) })
    return projected
  }
}

extension ReadParquetNode: SQLRelationalKind {
  var sqlForm: SQLForm { .read(.parquet) }
}
