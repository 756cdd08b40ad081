/// A Parquet file's footer (Thrift `FileMetaData`): the schema, the row count and the row
/// groups with their column chunks.
struct ParquetFileMetaData: Sendable, Hashable {
  /// One row group: its row count and one chunk per leaf column, in schema order.
  struct RowGroup: Sendable, Hashable {
    var rowCount: Int64 = 0
    var columns: [ParquetColumnMetaData] = []
  }

  var schema: [ParquetSchemaElement] = []
  var rowCount: Int64 = 0
  var rowGroups: [RowGroup] = []

  /// Reads the footer in `bytes[start..<end]`.
  init(_ bytes: [UInt8], from start: Int, to end: Int) throws(ParquetError) {
    var reader = ThriftCompactReader(bytes, from: start, to: end, what: "the footer")
    typealias Wire = ThriftCompactReader.WireType
    var last = 0
    while let (id, type) = try reader.field(after: &last) {
      switch id {
      case 2:
        schema = try reader.list(type, of: Wire.structure) { (inner) throws(ParquetError) in
          try ParquetSchemaElement(&inner)
        }
      case 3: rowCount = try reader.integer(type)
      case 4:
        rowGroups = try reader.list(type, of: Wire.structure) { (inner) throws(ParquetError) in
          try Self.rowGroup(&inner)
        }
      default: try reader.skip(type)
      }
    }
  }

  private static func rowGroup(_ reader: inout ThriftCompactReader) throws(ParquetError) -> RowGroup {
    var group = RowGroup()
    var last = 0
    while let (id, type) = try reader.field(after: &last) {
      switch id {
      case 1:
        group.columns = try reader.list(type, of: ThriftCompactReader.WireType.structure) {
          (inner) throws(ParquetError) in
          try ParquetColumnMetaData(chunk: &inner)
        }
      case 3: group.rowCount = try reader.integer(type)
      default: try reader.skip(type)
      }
    }
    return group
  }
}
