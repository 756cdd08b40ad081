/// A page's header (Thrift `PageHeader` with its data page v1/v2 or dictionary page header).
struct ParquetPageHeader: Sendable, Hashable {
  /// 0 data page, 1 index page, 2 dictionary page, 3 data page v2.
  var type = -1
  var uncompressedSize = 0
  var compressedSize = 0
  var valueCount = 0
  /// The values' encoding (Thrift `Encoding`).
  var encoding = 0
  /// v2: the rows, and the byte lengths of the (never compressed) levels before the values.
  var nullCount = 0
  var rowCount = 0
  var definitionLevelsLength = 0
  var repetitionLevelsLength = 0
  var isCompressed = true
  /// v1: the encoding of the definition levels (3 RLE, 4 bit-packed).
  var definitionEncoding = 3

  /// Reads the header at `bytes[start...]`, up to `end`.
  init(_ bytes: [UInt8], from start: Int, to end: Int) throws(ParquetError) {
    var reader = ThriftCompactReader(bytes, from: start, to: end, what: "a page header")
    try self.init(&reader)
    self.headerEnd = reader.position
  }

  /// The offset of the first byte after the header.
  var headerEnd = 0

  private init(_ reader: inout ThriftCompactReader) throws(ParquetError) {
    typealias Wire = ThriftCompactReader.WireType
    var last = 0
    while let (id, type) = try reader.field(after: &last) {
      switch id {
      case 1: self.type = try reader.int(type, minimum: 0)
      case 2: uncompressedSize = try reader.int(type, minimum: 0)
      case 3: compressedSize = try reader.int(type, minimum: 0)
      case 5, 7, 8:
        guard type == Wire.structure else { throw reader.corrupt("a page header of wire type \(type)") }
        var inner = 0
        while let (field, fieldType) = try reader.field(after: &inner) {
          switch (id, field) {
          case (_, 1): valueCount = try reader.int(fieldType, minimum: 0)
          case (5, 2), (7, 2), (8, 4): encoding = try reader.int(fieldType, minimum: 0)
          case (5, 3): definitionEncoding = try reader.int(fieldType, minimum: 0)
          case (8, 2): nullCount = try reader.int(fieldType, minimum: 0)
          case (8, 3): rowCount = try reader.int(fieldType, minimum: 0)
          case (8, 5): definitionLevelsLength = try reader.int(fieldType, minimum: 0)
          case (8, 6): repetitionLevelsLength = try reader.int(fieldType, minimum: 0)
          case (8, 7): isCompressed = try reader.bool(fieldType)
          default: try reader.skip(fieldType)
          }
        }
      default: try reader.skip(type)
      }
    }
  }
}
