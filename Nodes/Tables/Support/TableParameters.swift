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
  /// - Parameter side: for a node with several tables, which one (`"left"`), named in the error.
  /// - Throws: `NodeError` naming the column and the table's columns.
  static func column(_ name: String, in table: Table, side: String? = nil) throws -> Int {
    if let index = table.columnIndex(named: name) { return index }
    let known = table.columnNames.prefix(30).map { "'\($0)'" }.joined(separator: ", ")
    let which = side.map { " in the \($0) table" } ?? ""
    throw NodeError("no column '\(name)'\(which) (columns: \(known)\(table.columnCount > 30 ? ", …" : ""))")
  }

  /// Checks that the rows of `table` can be numbered with `Int32` (the row indices that
  /// `Table.gathering` takes), so a node never traps converting a row number.
  ///
  /// - Throws: `NodeError` naming the operation and the row count.
  static func checkRowIndices(_ table: Table, for operation: String) throws {
    guard table.rowCount <= Int(Int32.max) else {
      throw NodeError("a table of \(table.rowCount) rows is too large to \(operation)")
    }
  }

  /// A node's `TableError` as its failure.
  static func failure(_ error: TableError) -> NodeError { NodeError(error.message) }
}
