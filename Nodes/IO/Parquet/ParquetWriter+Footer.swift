import FlowRuntime

/// The footer `ParquetWriter` writes: Thrift `FileMetaData` with the schema (a root, then one
/// leaf per column), the row groups with each chunk's `ColumnMetaData` and statistics, and a
/// type-defined column order for every column (so readers trust `min_value`/`max_value`).
extension ParquetWriter {
  func footer(_ table: Table, optional: [Bool], groups: [(rows: Int, chunks: [ColumnChunkPlacement])]) -> [UInt8] {
    typealias Wire = ThriftCompactReader.WireType
    let names = table.columnNames
    return ThriftCompactWriter.message { writer in
      writer.i32(1, 1)  // version
      writer.listHeader(2, count: names.count + 1, element: Wire.structure)
      writer.beginStructElement()
      writer.string(4, "schema")
      writer.i32(5, names.count)
      writer.endStruct()
      for (index, column) in table.columns.enumerated() {
        writer.beginStructElement()
        writer.i32(1, ParquetChunkWriter.physicalType(column.type))
        writer.i32(3, optional[index] ? 1 : 0)
        writer.string(4, names[index])
        if column.type == .string {
          writer.i32(6, 0)  // UTF8
          writer.beginStruct(10)  // LogicalType: STRING
          writer.beginStruct(1)
          writer.endStruct()
          writer.endStruct()
        }
        writer.endStruct()
      }
      writer.i64(3, table.rowCount)
      writer.listHeader(4, count: groups.count, element: Wire.structure)
      for group in groups {
        writer.beginStructElement()
        writer.listHeader(1, count: group.chunks.count, element: Wire.structure)
        for (index, placed) in group.chunks.enumerated() { columnChunk(placed, name: names[index], into: &writer) }
        writer.i64(2, group.chunks.reduce(0) { $0 + $1.chunk.uncompressedSize })
        writer.i64(3, group.rows)
        writer.i64(5, group.chunks.first?.offset ?? 0)
        writer.i64(6, group.chunks.reduce(0) { $0 + $1.chunk.compressedSize })
        writer.endStruct()
      }
      writer.string(6, "FlowRuntime writeParquet")
      writer.listHeader(7, count: names.count, element: Wire.structure)
      for _ in names {
        writer.beginStructElement()
        writer.beginStruct(1)  // TYPE_ORDER
        writer.endStruct()
        writer.endStruct()
      }
    }
  }

  /// A `ColumnChunk` with its `ColumnMetaData`.
  private func columnChunk(_ placed: ColumnChunkPlacement, name: String, into writer: inout ThriftCompactWriter) {
    typealias Wire = ThriftCompactReader.WireType
    let chunk = placed.chunk
    writer.beginStructElement()
    writer.i64(2, placed.offset)  // file_offset
    writer.beginStruct(3)
    writer.i32(1, chunk.type)
    writer.listHeader(2, count: chunk.encodings.count, element: Wire.i32)
    for encoding in chunk.encodings { writer.element(i32: encoding) }
    writer.listHeader(3, count: 1, element: Wire.binary)
    writer.element(binary: Array(name.utf8))
    writer.i32(4, compression.codec)
    writer.i64(5, chunk.valueCount)
    writer.i64(6, chunk.uncompressedSize)
    writer.i64(7, chunk.compressedSize)
    writer.i64(9, placed.offset + chunk.dataPageOffset)
    if let dictionary = chunk.dictionaryPageOffset { writer.i64(11, placed.offset + dictionary) }
    writer.beginStruct(12)  // Statistics
    writer.i64(3, chunk.nullCount)
    if let bounds = chunk.bounds {
      writer.binary(5, bounds.maximum)
      writer.binary(6, bounds.minimum)
    }
    writer.endStruct()
    writer.endStruct()
    writer.endStruct()
  }
}
