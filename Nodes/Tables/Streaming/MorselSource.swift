import FlowRuntime

/// A reader's evaluator whose table a streamed chain can take in morsels (`StreamedChain`):
/// `readCSV` by blocks of the file, `readParquet` by row groups.
protocol MorselSource: NodeEvaluator {
  /// Hands the reader's table to `body` in morsels, in order: their rows together are the
  /// table `evaluate` gives, typed alike. Anything thrown makes the chain run materialized,
  /// where the reader fails with its own message.
  ///
  /// - Parameter morselBytes: the bytes of a morsel, where the format lets the reader choose.
  func readMorsels(morselBytes: Int, _ body: (Table) throws -> Void) throws
}

extension ReadCSVNode.Evaluator: MorselSource {
  func readMorsels(morselBytes: Int, _ body: (Table) throws -> Void) throws {
    // A `.gz` file is decompressed whole: the chain runs materialized.
    guard !file.isGzip else { throw CSVMorsels.Fallback() }
    _ = try CSVMorsels.read(try file.open(), reader: reader, morselBytes: morselBytes, body)
  }
}

extension ReadParquetNode.Evaluator: MorselSource {
  /// One morsel per row group, the file's own unit (`morselBytes` does not apply).
  func readMorsels(morselBytes: Int, _ body: (Table) throws -> Void) throws {
    guard !file.isGzip else { throw CSVMorsels.Fallback() }
    try reader.readRowGroups(try ParquetSource.opened(try file.open(), progress: file.environment.progress), body)
  }
}
