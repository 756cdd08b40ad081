/// Where a column chunk's pages are and how they are compressed (Thrift `ColumnChunk` with
/// its `ColumnMetaData`).
struct ParquetColumnMetaData: Sendable, Hashable {
  var type = 0
  var path: [String] = []
  /// Thrift `CompressionCodec`: 0 none, 1 Snappy, 2 gzip, 3 LZO, 4 Brotli, 5 LZ4 (Hadoop),
  /// 6 Zstandard, 7 LZ4 raw.
  var codec = 0
  var valueCount: Int64 = 0
  var totalUncompressedSize: Int64 = 0
  var totalCompressedSize: Int64 = 0
  var dataPageOffset: Int64 = 0
  var dictionaryPageOffset: Int64?

  init() {}

  /// Reads a `ColumnChunk` (whose field 3 is the `ColumnMetaData`).
  init(chunk reader: inout ThriftCompactReader) throws(ParquetError) {
    var last = 0
    var found = false
    while let (id, type) = try reader.field(after: &last) {
      if id == 3, type == ThriftCompactReader.WireType.structure {
        try read(&reader)
        found = true
      } else if id == 1, type == ThriftCompactReader.WireType.binary {
        throw ParquetError("a column chunk in another file (\(try reader.string(type))) is not supported")
      } else {
        try reader.skip(type)
      }
    }
    guard found else { throw reader.corrupt("a column chunk without its metadata") }
  }

  private mutating func read(_ reader: inout ThriftCompactReader) throws(ParquetError) {
    var last = 0
    while let (id, type) = try reader.field(after: &last) {
      switch id {
      case 1: self.type = try reader.int(type, minimum: 0)
      case 3:
        path = try reader.list(type, of: ThriftCompactReader.WireType.binary) { (inner) throws(ParquetError) in
          try inner.string(ThriftCompactReader.WireType.binary)
        }
      case 4: codec = try reader.int(type, minimum: 0)
      case 5: valueCount = try reader.integer(type)
      case 6: totalUncompressedSize = try reader.integer(type)
      case 7: totalCompressedSize = try reader.integer(type)
      case 9: dataPageOffset = try reader.integer(type)
      case 11: dictionaryPageOffset = try reader.integer(type)
      default: try reader.skip(type)
      }
    }
  }
}
