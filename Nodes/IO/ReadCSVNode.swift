import FlowRuntime

/// `readCSV`: the CSV file at `path` as a table (see `CSVReader` for the rules).
struct ReadCSVNode: MorselSourceKind {
  var name: String { "readCSV" }
  var summary: String { "table = the CSV file at path (RFC 4180, typed columns, nulls)" }
  var parameters: [ParameterDeclaration] {
    [
      FileParameter.declaration,
      ParameterDeclaration("delimiter", .string, default: .string(","), summary: "one ASCII character"),
      ParameterDeclaration("header", .bool, default: .bool(true), summary: "the first row names the columns"),
      ParameterDeclaration(
        "nullValues", .list, default: .list(CSVReader.defaultNullValues.map { .string($0) }),
        summary: "unquoted cells that are null"),
      ParameterDeclaration(
        "columns", .list, default: nil,
        summary: "only these columns, in the file's order (default all; flow run sets it to what the graph reads)")
    ]
      + FileWatch.declarations
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    var reader = CSVReader()
    reader.delimiter = try Self.delimiter(parameters)
    reader.header = parameters.bool("header") ?? true
    if let tokens = parameters.list("nullValues") {
      reader.nullTokens = []
      for token in tokens {
        guard case .string(let text) = token else {
          throw NodeConfigurationError(parameter: "nullValues", reason: "must be a list of strings, found \(token)")
        }
        reader.nullTokens.append(Array(text.utf8))
      }
    }
    reader.progress = parameters.environment.progress
    reader.limits = parameters.environment.limits
    reader.strategy = parameters.environment.csvRead
    reader.workers = parameters.environment.workers
    if let wanted = try parameters.columnNames() { reader.columns = wanted }
    let file = FileParameter(parameters)
    let evaluator = Evaluator(file: file, reader: reader)
    return NodeInstance(
      inputs: [], outputs: [PortDeclaration("table", .table)], evaluator: evaluator, cost: .expensive,
      live: try FileWatch.behavior(parameters, evaluator: evaluator, outputCount: 1, file: file))
  }

  /// The `delimiter` param as one byte.
  static func delimiter(_ parameters: NodeParameters) throws(NodeConfigurationError) -> UInt8 {
    let text = parameters.string("delimiter") ?? ","
    guard text.utf8.count == 1, let byte = text.utf8.first, byte < 0x80, byte != 0x22, byte != 0x0A, byte != 0x0D else {
      throw NodeConfigurationError(
        parameter: "delimiter",
        reason: "must be one ASCII character other than a quote or line break, found \"\(text)\"")
    }
    return byte
  }

  struct Evaluator: NodeEvaluator {
    let file: FileParameter
    let reader: CSVReader

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let checked = try file.open()
      do {
        // A large regular file in blocks on every core; otherwise (or for records the
        // parallel path leaves to it) the serial reader over the whole bytes. A `.gz` file is
        // decompressed first, then read the same way from memory.
        if !file.isGzip, let table = try reader.readInBlocks(.file(checked)) {
          outputs[0] = .table(table)
          return
        }
        // A decompressed `.gz` may still go in blocks; a plain file the block reader declined
        // goes serially.
        let bytes = try file.read(checked)
        outputs[0] = .table(try file.isGzip ? reader.read(bytes) : reader.readSerially(bytes))
      } catch let error as CSVError {
        throw NodeError("\(file.path): \(error)")
      } catch let error as TableError {
        throw NodeError("\(file.path): \(error.message)")
      }
    }
  }
}

extension ReadCSVNode: SQLRelationalKind {
  var sqlForm: SQLForm { .read(.csv) }
}
