import FlowRuntime

/// A reader's evaluator whose table a streamed chain can take in morsels (`StreamedChain`):
/// `readCSV` by blocks of the file, `readParquet` by row groups.
protocol MorselSource: NodeEvaluator {
  /// Hands the reader's table in morsels, each passed through `transform`, to `body` in order
  /// on the calling thread: the morsels' rows together are the table `evaluate` gives, typed
  /// alike. `transform` may run on other threads, on several morsels at once, where the format
  /// allows (a Parquet file's row groups); its second argument is how many threads one
  /// morsel's transform may use (1 where each thread transforms a morsel of its own). Anything
  /// thrown makes the chain run materialized, where the reader fails with its own message.
  ///
  /// - Parameter morselBytes: the bytes of a morsel, where the format lets the reader choose.
  /// - Returns: the time spent reading the morsels, summed over the threads, when they were
  ///   read on several at once; `nil` when the reading is the time `body` and `transform` leave.
  func readMorsels<Transformed: Sendable>(
    morselBytes: Int, transform: @escaping @Sendable (Table, Int) throws -> Transformed,
    _ body: (Transformed) throws -> Void
  ) throws -> Duration?
}

extension ReadCSVNode.Evaluator: MorselSource {
  /// Blocks parsed one morsel ahead on a thread of their own (`CSVMorsels`), each transformed
  /// on the calling thread, on the reader's threads.
  func readMorsels<Transformed: Sendable>(
    morselBytes: Int, transform: @escaping @Sendable (Table, Int) throws -> Transformed,
    _ body: (Transformed) throws -> Void
  ) throws -> Duration? {
    // A `.gz` file is decompressed whole: the chain runs materialized.
    guard !file.isGzip else { throw CSVMorsels.Fallback() }
    _ = try CSVMorsels.read(try file.open(), reader: reader, morselBytes: morselBytes) {
      try body(try transform($0, reader.workers))
    }
    return nil
  }
}

extension ReadParquetNode.Evaluator: MorselSource {
  /// One morsel per row group, the file's own unit (`morselBytes` does not apply): row groups
  /// decoded and transformed on the run's threads, several at once (`MorselPipeline`);
  /// a row group's columns on the threads left over when there are fewer row groups.
  func readMorsels<Transformed: Sendable>(
    morselBytes: Int, transform: @escaping @Sendable (Table, Int) throws -> Transformed,
    _ body: (Transformed) throws -> Void
  ) throws -> Duration? {
    guard !file.isGzip else { throw CSVMorsels.Fallback() }
    let groups = try reader.rowGroups(try ParquetSource.opened(try file.open(), progress: file.environment.progress))
    let producers = Swift.max(1, Swift.min(reader.workers, groups.count))
    let columnWorkers = Swift.max(1, reader.workers / producers)
    let clock = ContinuousClock()
    var reading = Duration.zero
    try MorselPipeline.run(
      count: groups.count, workers: producers,
      produce: { index in
        let start = clock.now
        let table = try groups.table(index, workers: columnWorkers)
        return (read: start.duration(to: clock.now), transformed: try transform(table, columnWorkers))
      },
      consume: { morsel in
        reading += morsel.read
        try body(morsel.transformed)
      })
    return reading
  }
}
