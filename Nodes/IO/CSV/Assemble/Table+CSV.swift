import FlowRuntime

extension Table {
  /// The table as `writeCSV` writes it (`CSVWriter`'s defaults: comma, LF line ends, a cell
  /// quoted only where needed): for `flow run --format csv`.
  ///
  /// - Throws: `CancellationError` if the task is cancelled while writing a big table.
  /// - Complexity: O(cells).
  package func csvBytes() throws -> [UInt8] { try CSVWriter().bytes(of: self) }
}
