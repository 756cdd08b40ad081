import FlowRuntime

/// Decoding the wanted columns: every (column, row group) chunk in parallel, each chunk's bytes
/// read from the source only when it is decoded and dropped after. A decoded chunk goes at once
/// into its column's `Assembly`, which appends chunks in row-group order (holding the few that
/// finish early) into arrays reserved for the whole column, so that each chunk is released as
/// soon as it is decoded and the values are held once, not once in chunks and again in columns.
/// Dictionary text columns keep their chunks' codes until the column is built
/// (`ParquetColumnConversion.dictionaryColumn`).
extension ParquetReader {
  typealias ChunkResult = Result<ParquetChunkReader.Chunk, any Error>

  /// One column's values so far: its row groups' chunks appended in order.
  private struct Assembled: Sendable {
    var values: ParquetValues
    /// Null flags, `nil` while every row appended holds a value.
    var valid: [Bool]?
    var rows = 0
    /// The next row group to append, and those decoded before it.
    var next = 0
    var pending: [Int: ChunkResult] = [:]
    /// The first row group (in order) that failed, and why.
    var failure: (group: Int, error: any Error)?
    /// A dictionary text column's chunks, kept whole.
    var kept: [ParquetChunkReader.Chunk] = []

    /// Appends `chunk`'s values and flags (reserving the whole column's `total` rows first).
    mutating func append(_ chunk: ParquetChunkReader.Chunk, total: Int) {
      var chunk = chunk
      chunk.materialize()
      if values.count == 0, rows == 0, chunk.rows == total {
        // The whole column in one chunk (a row group read alone): its values as they are.
        values = chunk.values
        valid = chunk.valid
        rows = chunk.rows
        return
      }
      if values.count == 0 { values.reserveCapacity(total, bytes: chunk.values.bytes.count) }
      values.append(contentsOf: chunk.values)
      if chunk.valid != nil, valid == nil { valid = [Bool](repeating: true, count: rows) }
      if valid != nil {
        if valid?.capacity ?? 0 < total { valid?.reserveCapacity(total) }
        if let flags = chunk.valid {
          valid? += flags
        } else {
          valid?.append(contentsOf: repeatElement(true, count: chunk.rows))
        }
      }
      rows += chunk.rows
    }
  }

  /// Where the tasks that decode a column's chunks hand them in, in any order.
  private final class Assembly: Sendable {
    let keepsChunks: Bool
    /// The values to reserve room for.
    let total: Int
    private let state: Locked<Assembled>

    init(_ element: ParquetSchemaElement, total: Int) {
      keepsChunks = ParquetColumnConversion.keepsDictionary(element)
      self.total = total
      state = Locked(Assembled(values: ParquetValues(type: element.type ?? 0, typeLength: element.typeLength)))
    }

    /// Takes row group `group`'s chunk (or failure) and appends every one now in order.
    func add(_ result: ChunkResult, group: Int) {
      state.withLock { state in
        state.pending[group] = result
        while let next = state.pending.removeValue(forKey: state.next) {
          if state.failure == nil {
            switch next {
            case .success(let chunk):
              if keepsChunks { state.kept.append(chunk) } else { state.append(chunk, total: total) }
            case .failure(let error): state.failure = (state.next, error)
            }
          }
          state.next += 1
        }
      }
    }

    /// What was assembled (once every row group was added).
    func take() -> Assembled {
      state.withLock { state in
        let taken = state
        state = Assembled(values: ParquetValues(type: taken.values.type, typeLength: taken.values.typeLength))
        return taken
      }
    }
  }

  /// The table columns of `wanted` from `groups`' chunks in `source` (whose footer starts at
  /// `dataEnd`), `rows` rows in all, on up to `workers` threads.
  static func columns(
    _ wanted: [(element: ParquetSchemaElement, leaf: Int)], _ groups: [ParquetFileMetaData.RowGroup],
    source: ParquetSource, dataEnd: Int, rows: Int, byteLimit: Int, workers: Int
  ) throws -> [Column] {
    let groupCount = max(1, groups.count)
    // Room for every row, or for what the file's bytes could plausibly hold if it claims more.
    let assemblies = wanted.map { Assembly($0.element, total: min(rows, 64 * source.count + 4_096)) }
    _ = TableParallelism.map(wanted.count * groups.count, cells: rows * wanted.count, workers: workers) { task in
      let (column, group) = task.quotientAndRemainder(dividingBy: groupCount)
      let metadata = groups[group].columns[wanted[column].leaf]
      let groupRows = Int(groups[group].rowCount)
      let result = ChunkResult { () throws -> ParquetChunkReader.Chunk in
        let extent = groupRows > 0 ? try ParquetChunkReader.extent(of: metadata, dataEnd: dataEnd) : 0..<0
        let reader = ParquetChunkReader(
          data: try source.bytes(extent), base: extent.lowerBound, column: metadata,
          element: wanted[column].element, rows: groupRows, byteLimit: byteLimit)
        return try reader.read()
      }
      assemblies[column].add(result, group: group)
    }
    let built = TableParallelism.map(wanted.count, cells: rows * wanted.count, workers: workers) { column in
      Result { () throws -> Column in try build(wanted[column].element, assemblies[column].take()) }
    }
    return try built.map { try $0.get() }
  }

  /// The column of `element` from what was assembled.
  private static func build(_ element: ParquetSchemaElement, _ assembled: Assembled) throws -> Column {
    var assembled = assembled
    if let failure = assembled.failure {
      guard let parquet = failure.error as? ParquetError else { throw failure.error }
      throw ParquetError(column: element.name, "\(parquet.message) (row group \(failure.group + 1))")
    }
    if !assembled.kept.isEmpty {
      if let text = ParquetColumnConversion.dictionaryColumn(element, assembled.kept) { return text }
      let kept = assembled.kept
      assembled.kept = []
      let total = kept.reduce(0) { $0 + $1.rows }
      for chunk in kept { assembled.append(chunk, total: total) }
    }
    return try ParquetColumnConversion.column(element, assembled.values, valid: assembled.valid)
  }
}
