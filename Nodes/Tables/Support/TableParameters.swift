import FlowRuntime

/// Reading the params of table kinds.
enum TableParameters {
  /// Param `name` as a list of strings.
  ///
  /// - Throws: `NodeConfigurationError` if an item is not a string.
  static func strings(_ parameters: NodeParameters, _ name: String) throws(NodeConfigurationError) -> [String] {
    guard let items = parameters.list(name) else { return [] }
    var result: [String] = []
    for item in items {
      guard case .string(let text) = item else {
        throw NodeConfigurationError(parameter: name, reason: "must be a list of column names, found \(item)")
      }
      result.append(text)
    }
    return result
  }

  /// The position of column `name` in `table`.
  ///
  /// - Throws: `NodeError` naming the column and the table's columns.
  static func column(_ name: String, in table: Table) throws -> Int {
    if let index = table.columnIndex(named: name) { return index }
    let known = table.columnNames.prefix(30).map { "'\($0)'" }.joined(separator: ", ")
    throw NodeError("no column '\(name)' (columns: \(known)\(table.columnCount > 30 ? ", …" : ""))")
  }

  /// A node's `TableError` as its failure.
  static func failure(_ error: TableError) -> NodeError { NodeError(error.message) }
}
