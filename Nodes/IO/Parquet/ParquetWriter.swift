import FlowCodecs
import FlowRuntime

/// Writes a table as a flat Parquet file, as DuckDB, polars and pyarrow read it: integer →
/// `INT64`, number → `DOUBLE`, bool → `BOOLEAN`, string → `BYTE_ARRAY` (`STRING`; dictionary-
/// encoded where that is smaller), nulls as definition levels (a column with a null is
/// `OPTIONAL`, else `REQUIRED`), statistics per column chunk, `rowGroupRows` rows per row
/// group, data pages v1 (or v2, `pageVersion`) compressed with `compression`.
///
/// The file is `PAR1`, each row group's column chunks (encoded in parallel on
/// `workers` threads, then handed on in order), the footer (Thrift compact
/// `FileMetaData`), its 4-byte length and `PAR1`. Only one row group's encoded bytes are held
/// at a time. The bytes do not depend on the thread count.
package struct ParquetWriter: Sendable {
  /// The codec of every page.
  package enum Compression: String, Sendable, CaseIterable {
    case none, snappy, gzip, lz4, zstd

    /// Thrift `CompressionCodec`: 0 `UNCOMPRESSED`, 1 `SNAPPY`, 2 `GZIP`, 6 `ZSTD`, 7 `LZ4_RAW`.
    var codec: Int {
      switch self {
      case .none: 0
      case .snappy: 1
      case .gzip: 2
      case .lz4: 7
      case .zstd: 6
      }
    }

    /// `body` compressed.
    func compress(_ body: [UInt8]) -> [UInt8] {
      switch self {
      case .none: body
      case .snappy: Snappy.compress(body)
      case .gzip: Gzip.compress(body)
      case .lz4: LZ4.compressBlock(body)
      case .zstd: Zstd.compress(body, checksum: false)
      }
    }
  }

  /// The most rows a row group may be given (`rowGroupRows`): Parquet counts a page's values
  /// in an `i32`.
  package static let maximumRowGroupRows = Int(Int32.max)

  package var compression = Compression.snappy
  /// Rows per row group (1…`maximumRowGroupRows`); the last holds the rest.
  package var rowGroupRows = 1_048_576
  /// Whether string columns may be dictionary-encoded.
  package var dictionary = true
  /// The data page format: 1 (`DATA_PAGE`) or 2 (`DATA_PAGE_V2`: levels uncompressed, before
  /// the compressed values).
  package var pageVersion = 1
  /// The most threads encoding a row group's chunks at once; `writeParquet` takes its
  /// environment's (`EvaluationEnvironment.workers`).
  package var workers = TableParallelism.defaultWorkers

  package init(
    compression: Compression = .snappy, rowGroupRows: Int = 1_048_576, dictionary: Bool = true, pageVersion: Int = 1
  ) {
    self.compression = compression
    self.rowGroupRows = max(1, min(rowGroupRows, Self.maximumRowGroupRows))
    self.dictionary = dictionary
    self.pageVersion = pageVersion == 2 ? 2 : 1
  }

  /// The Parquet file of `table`, handed to `emit` in pieces, in order.
  ///
  /// - Throws: `ParquetError` naming the column for a page past Parquet's size limit, or what
  ///   `emit` throws.
  package func write(_ table: Table, _ emit: (ArraySlice<UInt8>) throws -> Void) throws {
    let magic: [UInt8] = Array("PAR1".utf8)
    try emit(magic[...])
    var offset = magic.count
    var groups: [(rows: Int, chunks: [ColumnChunkPlacement])] = []
    let columns = table.columns
    let names = table.columnNames
    let optional = columns.map { $0.nullCount > 0 }
    let codec = compression
    let allowsDictionary = dictionary
    let version = pageVersion
    for start in stride(from: 0, to: table.rowCount, by: rowGroupRows) {
      let rows = start..<min(table.rowCount, start + rowGroupRows)
      let encoded = TableParallelism.map(columns.count, cells: rows.count * columns.count, workers: workers) {
        index -> Result<ParquetChunkWriter.Chunk, ParquetError> in
        let writer = ParquetChunkWriter(
          column: columns[index], rows: rows, name: names[index], isOptional: optional[index],
          codec: codec, allowsDictionary: allowsDictionary,
          pageVersion: version)
        return Result { () throws(ParquetError) in try writer.write() }
      }
      var placements: [ColumnChunkPlacement] = []
      for result in encoded {
        var chunk = try result.get()
        try emit(chunk.bytes[...])
        let size = chunk.bytes.count
        chunk.bytes = []
        placements.append(ColumnChunkPlacement(chunk: chunk, offset: offset))
        offset += size
      }
      groups.append((rows.count, placements))
    }
    let metadata = self.footer(table, optional: optional, groups: groups)
    var tail = metadata
    ParquetChunkWriter.appendLittleEndian(UInt64(metadata.count), 4, to: &tail)
    tail += magic
    try emit(tail[...])
  }

  /// The Parquet file of `table`.
  package func write(_ table: Table) throws -> [UInt8] {
    var bytes: [UInt8] = []
    try write(table) { bytes += $0 }
    return bytes
  }

  /// A chunk written at `offset` in the file (its bytes dropped once written).
  struct ColumnChunkPlacement {
    var chunk: ParquetChunkWriter.Chunk
    var offset: Int
  }
}
