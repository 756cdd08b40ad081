/// One node of a Parquet file's schema (Thrift `SchemaElement`, with its `LogicalType`
/// flattened): a group when `childCount` is set, else a leaf column.
struct ParquetSchemaElement: Sendable, Hashable {
  /// What a logical (or legacy converted) type annotation says about a column.
  enum Annotation: Sendable, Hashable {
    case string, enumeration, json, bson, uuid, date, interval, float16, unknown
    case map, list
    case integer(bits: Int, signed: Bool)
    case decimal(scale: Int, precision: Int)
    /// `TIME` or `TIMESTAMP` in a unit (1,000 ms, 1,000,000 µs or 1,000,000,000 ns a second).
    case time(perSecond: Int64, utc: Bool)
    case timestamp(perSecond: Int64, utc: Bool)
    /// A logical type this reader does not know (the union's field id).
    case other(Int)
  }

  var name = ""
  /// The physical type (Thrift `Type`), absent for a group.
  var type: Int?
  var typeLength = 0
  /// 0 required, 1 optional, 2 repeated.
  var repetition = 0
  var childCount: Int?
  var convertedType: Int?
  var scale = 0
  var precision = 0
  var logical: Annotation?

  /// The annotation the column carries: its logical type, else its converted type's meaning.
  var annotation: Annotation? {
    if let logical { return logical }
    switch convertedType {
    case 0: return .string
    case 1, 2: return .map
    case 3: return .list
    case 4: return .enumeration
    case 5: return .decimal(scale: scale, precision: precision)
    case 6: return .date
    case 7: return .time(perSecond: 1_000, utc: true)
    case 8: return .time(perSecond: 1_000_000, utc: true)
    case 9: return .timestamp(perSecond: 1_000, utc: true)
    case 10: return .timestamp(perSecond: 1_000_000, utc: true)
    case let code? where (11...14).contains(code): return .integer(bits: 8 << (code - 11), signed: false)
    case let code? where (15...18).contains(code): return .integer(bits: 8 << (code - 15), signed: true)
    case 19: return .json
    case 20: return .bson
    case 21: return .interval
    default: return nil
    }
  }

  init() {}

  init(_ reader: inout ThriftCompactReader) throws(ParquetError) {
    var last = 0
    while let (id, type) = try reader.field(after: &last) {
      switch id {
      case 1: self.type = try reader.int(type, minimum: 0)
      case 2: typeLength = try reader.int(type, minimum: 0)
      case 3: repetition = try reader.int(type, minimum: 0)
      case 4: name = try reader.string(type)
      case 5: childCount = try reader.int(type, minimum: 0)
      case 6: convertedType = try reader.int(type)
      case 7: scale = try reader.int(type)
      case 8: precision = try reader.int(type)
      case 10: logical = try Self.logicalType(&reader, type)
      default: try reader.skip(type)
      }
    }
  }

  /// A `LogicalType` union.
  private static func logicalType(_ reader: inout ThriftCompactReader, _ type: UInt8) throws(ParquetError)
    -> Annotation?
  {
    guard type == ThriftCompactReader.WireType.structure else {
      throw reader.corrupt("a logical type of wire type \(type)")
    }
    var result: Annotation?
    var last = 0
    while let (id, type) = try reader.field(after: &last) {
      switch id {
      case 5, 7, 8, 10:
        var first: Int64 = 0
        var second: Int64 = 0
        var flag = false
        var unit: Int64 = 1_000
        var inner = 0
        guard type == ThriftCompactReader.WireType.structure else {
          throw reader.corrupt("a logical type of wire type \(type)")
        }
        while let (field, fieldType) = try reader.field(after: &inner) {
          switch (id, field) {
          case (5, 1): first = try reader.integer(fieldType)
          case (5, 2): second = try reader.integer(fieldType)
          case (10, 1): first = try reader.integer(fieldType)
          case (7, 1), (8, 1), (10, 2): flag = try reader.bool(fieldType)
          case (7, 2), (8, 2): unit = try timeUnit(&reader, fieldType)
          default: try reader.skip(fieldType)
          }
        }
        switch id {
        case 5: result = .decimal(scale: Int(clamping: first), precision: Int(clamping: second))
        case 7: result = .time(perSecond: unit, utc: flag)
        case 8: result = .timestamp(perSecond: unit, utc: flag)
        default: result = .integer(bits: Int(clamping: first), signed: flag)
        }
      default:
        try reader.skip(type)
        let simple: [Int: Annotation] = [
          1: .string, 2: .map, 3: .list, 4: .enumeration, 6: .date, 11: .unknown, 12: .json,
          13: .bson, 14: .uuid, 15: .float16
        ]
        result = simple[id] ?? .other(id)
      }
    }
    return result
  }

  /// A `TimeUnit` union: how many units make a second.
  private static func timeUnit(_ reader: inout ThriftCompactReader, _ type: UInt8) throws(ParquetError) -> Int64 {
    guard type == ThriftCompactReader.WireType.structure else {
      throw reader.corrupt("a time unit of wire type \(type)")
    }
    var unit: Int64 = 1_000
    var last = 0
    while let (id, type) = try reader.field(after: &last) {
      try reader.skip(type)
      unit = id == 2 ? 1_000_000 : id == 3 ? 1_000_000_000 : 1_000
    }
    return unit
  }
}
