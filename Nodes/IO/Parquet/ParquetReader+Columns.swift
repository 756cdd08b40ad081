import FlowRuntime
import Synchronization

/// Decoding the wanted columns: every (column, row group) chunk in parallel, each chunk's bytes
/// read from the source only when it is decoded and dropped after; then each column joined
/// from its chunks (in parallel by column), each chunk released as soon as it is appended, so
/// that the decoded values are held about once, not once in chunks and again in columns.
extension ParquetReader {
  /// One column's decoded chunks (a row group's each, in order), handed to the one task that
  /// joins them, which takes them out (so that it holds the only reference to each).
  private final class Parts: Sendable {
    private let parts: Mutex<[Result<ParquetChunkReader.Chunk, any Error>]>

    init(_ parts: [Result<ParquetChunkReader.Chunk, any Error>]) { self.parts = Mutex(parts) }

    func take() -> [Result<ParquetChunkReader.Chunk, any Error>] { parts.withLock { parts in
      defer { parts = [] }
      return parts
    } }
  }

  /// The table columns of `wanted` from `groups`' chunks in `source` (whose footer starts at
  /// `dataEnd`), `rows` rows in all.
  static func columns(_ wanted: [(element: ParquetSchemaElement, leaf: Int)], _ groups: [ParquetFileMetaData.RowGroup],
                      source: ParquetSource, dataEnd: Int, rows: Int, byteLimit: Int) throws -> [Column] {
    let groupCount = max(1, groups.count)
    var chunks = TableParallelism.map(wanted.count * groups.count, cells: rows * wanted.count) { task in
      let (column, group) = task.quotientAndRemainder(dividingBy: groupCount)
      let metadata = groups[group].columns[wanted[column].leaf]
      let groupRows = Int(groups[group].rowCount)
      return Result { () throws -> ParquetChunkReader.Chunk in
        let extent = groupRows > 0 ? try ParquetChunkReader.extent(of: metadata, dataEnd: dataEnd) : 0..<0
        let reader = ParquetChunkReader(data: try source.bytes(extent), base: extent.lowerBound, column: metadata,
                                        element: wanted[column].element, rows: groupRows, byteLimit: byteLimit)
        return try reader.read()
      }
    }
    let parts = (0..<wanted.count).map { column in Parts(Array(chunks[column * groups.count..<(column + 1) * groups.count])) }
    chunks = []
    let built = TableParallelism.map(wanted.count, cells: rows * wanted.count) { column in
      Result { () throws -> Column in try join(wanted[column].element, parts[column].take()) }
    }
    return try built.map { try $0.get() }
  }

  /// The column of `element` from its chunks, each released once appended.
  private static func join(_ element: ParquetSchemaElement, _ results: [Result<ParquetChunkReader.Chunk, any Error>]) throws -> Column {
    var parts: [ParquetChunkReader.Chunk] = []
    parts.reserveCapacity(results.count)
    for (group, result) in results.enumerated() {
      switch result {
      case .success(let chunk): parts.append(chunk)
      case .failure(let error as ParquetError): throw ParquetError(column: element.name, "\(error.message) (row group \(group + 1))")
      case .failure(let error): throw error
      }
    }
    if let text = ParquetColumnConversion.dictionaryColumn(element, parts) { return text }
    let empty = ParquetValues(type: element.type ?? 0, typeLength: element.typeLength)
    var values = empty
    var valid: [Bool]? = nil
    if parts.contains(where: { $0.valid != nil }) {
      valid = []
      valid?.reserveCapacity(parts.reduce(0) { $0 + $1.rows })
    }
    if parts.count > 1 {
      values.reserveCapacity(parts.reduce(0) { $0 + $1.decodedCount }, bytes: parts.reduce(0) { $0 + $1.values.bytes.count })
    }
    for index in parts.indices {
      var chunk = parts[index]
      parts[index] = ParquetChunkReader.Chunk(values: empty, valid: nil)
      chunk.materialize()
      if parts.count == 1 { values = chunk.values } else { values.append(contentsOf: chunk.values) }
      if let flags = chunk.valid { valid? += flags } else { valid?.append(contentsOf: repeatElement(true, count: chunk.rows)) }
    }
    return try ParquetColumnConversion.column(element, values, valid: valid)
  }
}
