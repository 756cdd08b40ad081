import FlowRuntime

/// Writes one column chunk (the rows `rows` of one column) as Parquet pages: a dictionary page
/// and `RLE_DICTIONARY` data pages for a string column where a dictionary pays (see
/// `ParquetChunkWriter+Dictionary.swift`), else `PLAIN` data pages, at most `pageRows` rows
/// each; definition levels (RLE, bit width 1) before the values when the column is optional.
/// A v1 page compresses levels and values together with the writer's codec; a v2 page keeps
/// its levels uncompressed (their byte length in the header, no length prefix) and compresses
/// only the values (an empty values section is stored uncompressed, `is_compressed` false).
///
/// Invariants: a page holds the values of its valid rows only, in row order; its header's
/// sizes are those of the bytes that follow it (checked to fit Thrift's `i32`, else
/// `ParquetError` naming the column); offsets in `Chunk` are relative to the chunk's start.
struct ParquetChunkWriter {
  /// A chunk as written: its bytes, and what the footer says of it.
  struct Chunk: Sendable {
    var bytes: [UInt8] = []
    var type = 0
    /// Thrift `Encoding`s used: 0 `PLAIN`, 3 `RLE`, 8 `RLE_DICTIONARY`.
    var encodings: [Int] = [0]
    var valueCount = 0
    /// Headers and uncompressed page bodies.
    var uncompressedSize = 0
    /// Headers and page bodies as written (`bytes.count`, kept once the bytes are handed on).
    var compressedSize = 0
    var dictionaryPageOffset: Int?
    /// The first data page's offset (-1 until one is written).
    var dataPageOffset = -1
    var nullCount = 0
    /// The least and greatest value, `PLAIN`-encoded (no length for a string); nil when none.
    var bounds: (minimum: [UInt8], maximum: [UInt8])?
  }

  /// The most rows in a data page.
  static let pageRows = 1 << 16

  let column: Column
  let rows: Range<Int>
  let name: String
  /// Whether the column is optional (has nulls somewhere): definition levels are written.
  let isOptional: Bool
  let codec: ParquetWriter.Compression
  /// Whether a string column may be dictionary-encoded.
  let allowsDictionary: Bool
  /// 1: `DATA_PAGE`; 2: `DATA_PAGE_V2`.
  let pageVersion: Int

  /// The Parquet physical type of a table column.
  static func physicalType(_ type: ColumnType) -> Int {
    switch type {
    case .bool: 0
    case .integer: 2
    case .number: 5
    case .string: 6
    }
  }

  func write() throws(ParquetError) -> Chunk {
    var chunk = Chunk()
    chunk.type = Self.physicalType(column.type)
    chunk.valueCount = rows.count
    for row in rows where column.isNull(row) { chunk.nullCount += 1 }
    chunk.bounds = bounds()
    if isOptional { chunk.encodings.append(3) }
    if allowsDictionary, case .string(let strings) = column.storage, let encoded = dictionaryEncoding(strings) {
      try writeDictionary(encoded.entries, encoded.codes, into: &chunk)
      return chunk
    }
    for start in stride(from: rows.lowerBound, to: rows.upperBound, by: Self.pageRows) {
      let page = start..<min(rows.upperBound, start + Self.pageRows)
      var body = levels(page)
      let levelBytes = body.count
      appendPlainValues(page, to: &body)
      try appendPage(
        body, values: page.count, encoding: 0, levelBytes: levelBytes, nulls: nullCount(page), into: &chunk)
    }
    return chunk
  }

  /// The definition levels of `page` (a 4-byte length, then the runs), or nothing for a
  /// required column.
  func levels(_ page: Range<Int>) -> [UInt8] {
    guard isOptional else { return [] }
    var runs: [UInt8] = []
    ParquetRLEEncoder(bitWidth: 1).encode(page.map { column.isNull($0) ? 0 : 1 }, into: &runs)
    var body: [UInt8] = []
    body.reserveCapacity(4 + runs.count)
    for shift in stride(from: 0, to: 32, by: 8) { body.append(UInt8(truncatingIfNeeded: runs.count >> shift)) }
    return body + runs
  }

  /// The null rows of `page`.
  func nullCount(_ page: Range<Int>) -> Int {
    guard isOptional else { return 0 }
    return page.reduce(0) { $0 + (column.isNull($1) ? 1 : 0) }
  }

  /// The `PLAIN` values of the valid rows of `page`.
  private func appendPlainValues(_ page: Range<Int>, to body: inout [UInt8]) {
    switch column.storage {
    case .integer(let values):
      for row in page where !column.isNull(row) {
        Self.appendLittleEndian(UInt64(bitPattern: values[row]), 8, to: &body)
      }
    case .number(let values):
      for row in page where !column.isNull(row) { Self.appendLittleEndian(values[row].bitPattern, 8, to: &body) }
    case .bool(let values):
      var byte: UInt8 = 0
      var bit = 0
      for row in page where !column.isNull(row) {
        if values[row] { byte |= 1 << UInt8(bit) }
        bit += 1
        if bit == 8 {
          body.append(byte)
          byte = 0
          bit = 0
        }
      }
      if bit > 0 { body.append(byte) }
    case .string(let strings):
      for row in page where !column.isNull(row) {
        let bytes = strings.utf8(row)
        Self.appendLittleEndian(UInt64(bytes.count), 4, to: &body)
        body += bytes
      }
    }
  }

  /// Appends a page of `body` (compressed here) with its header: a data page of `values` rows
  /// (`nulls` of them null) in `encoding` whose first `levelBytes` bytes are the definition
  /// levels with their length prefix, or a dictionary page of `values` entries.
  func appendPage(
    _ body: [UInt8], values: Int, encoding: Int, dictionary: Bool = false, levelBytes: Int = 0, nulls: Int = 0,
    into chunk: inout Chunk
  ) throws(ParquetError) {
    let version2 = pageVersion == 2 && !dictionary
    // v2: the levels without their prefix, uncompressed, then the values compressed.
    let levels = version2 ? Array(body[min(4, levelBytes)..<levelBytes]) : []
    let values2 = version2 ? Array(body[levelBytes...]) : []
    let compressed = version2 ? levels + (values2.isEmpty ? [] : codec.compress(values2)) : codec.compress(body)
    let size = version2 ? levels.count + values2.count : body.count
    let limit = Int(Int32.max)
    guard size <= limit, compressed.count <= limit else {
      throw ParquetError(column: name, "a page of \(size) bytes is larger than Parquet's limit of \(limit) bytes")
    }
    let header = ThriftCompactWriter.message { writer in
      writer.i32(1, dictionary ? 2 : version2 ? 3 : 0)
      writer.i32(2, size)
      writer.i32(3, compressed.count)
      if version2 {
        writer.beginStruct(8)
        writer.i32(1, values)
        writer.i32(2, nulls)
        writer.i32(3, values)
        writer.i32(4, encoding)
        writer.i32(5, levels.count)
        writer.i32(6, 0)
        writer.bool(7, !values2.isEmpty)
        writer.endStruct()
        return
      }
      writer.beginStruct(dictionary ? 7 : 5)
      writer.i32(1, values)
      writer.i32(2, encoding)
      if !dictionary {
        writer.i32(3, 3)  // definition levels: RLE
        writer.i32(4, 3)  // repetition levels: RLE (none are written)
      }
      writer.endStruct()
    }
    if dictionary {
      chunk.dictionaryPageOffset = chunk.bytes.count
    } else if chunk.dataPageOffset < 0 {
      chunk.dataPageOffset = chunk.bytes.count
    }
    chunk.uncompressedSize += header.count + size
    chunk.bytes += header
    chunk.bytes += compressed
    chunk.compressedSize = chunk.bytes.count
  }

  static func appendLittleEndian(_ value: UInt64, _ count: Int, to bytes: inout [UInt8]) {
    for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
  }
}
