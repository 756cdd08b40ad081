/// Reads the Thrift compact protocol, in which Parquet writes its footer and page headers.
///
/// A struct is a run of fields, each a header byte (the field id's delta from the previous one
/// in the high nibble, or 0 and a zigzag varint id; the wire type in the low nibble) and a
/// value, closed by a 0 byte. Integers are zigzag varints (`byte` is one raw byte), binaries a
/// varint length and bytes, lists and sets a header (size in the high nibble, or 15 and a
/// varint size; element type in the low nibble), maps a varint size and a key/value type byte.
///
/// Invariants: every read checks the bytes left (`ParquetError`, never a trap); a binary's
/// length and a list's size are bounded by the bytes left (each element takes at least one
/// byte), so no count can ask for more than the input holds; skipping nests at most
/// `maximumDepth` levels.
struct ThriftCompactReader {
  /// Wire types of the compact protocol.
  enum WireType {
    static let boolTrue: UInt8 = 1, boolFalse: UInt8 = 2, byte: UInt8 = 3, i16: UInt8 = 4, i32: UInt8 = 5
    static let i64: UInt8 = 6, double: UInt8 = 7, binary: UInt8 = 8, list: UInt8 = 9, set: UInt8 = 10
    static let map: UInt8 = 11, structure: UInt8 = 12
  }

  /// The deepest nesting `skip` follows (Parquet's own structs nest 5 deep).
  static let maximumDepth = 32

  let bytes: [UInt8]
  /// The next byte to read.
  private(set) var position: Int
  /// The end of what may be read.
  let end: Int
  /// What is being read, for messages ("the footer", "a page header").
  let what: String

  init(_ bytes: [UInt8], from start: Int, to end: Int, what: String) {
    self.bytes = bytes
    position = start
    self.end = end
    self.what = what
  }

  func corrupt(_ reason: String) -> ParquetError { ParquetError("\(what) is corrupt: \(reason) (at byte \(position))") }

  mutating func byte() throws(ParquetError) -> UInt8 {
    guard position < end else { throw corrupt("it ends early") }
    defer { position += 1 }
    return bytes[position]
  }

  mutating func varint() throws(ParquetError) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = try byte()
      guard shift < 64 else { throw corrupt("a varint longer than 10 bytes") }
      value |= UInt64(next & 0x7F) << shift
      if next & 0x80 == 0 { return value }
      shift += 7
    }
  }

  mutating func zigzag() throws(ParquetError) -> Int64 {
    let raw = try varint()
    return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
  }

  /// The next field's id and wire type, or `nil` at the struct's end; `last` is the previous
  /// field's id (0 at the start), updated.
  mutating func field(after last: inout Int) throws(ParquetError) -> (id: Int, type: UInt8)? {
    let header = try byte()
    guard header != 0 else { return nil }
    let type = header & 15
    let delta = Int(header >> 4)
    last = delta == 0 ? Int(truncatingIfNeeded: try zigzag()) : last + delta
    return (last, type)
  }

  /// An integer field (`byte`, `i16`, `i32` or `i64`).
  mutating func integer(_ type: UInt8) throws(ParquetError) -> Int64 {
    switch type {
    case WireType.byte: Int64(Int8(bitPattern: try byte()))
    case WireType.i16, WireType.i32, WireType.i64: try zigzag()
    default: throw corrupt("an integer field of wire type \(type)")
    }
  }

  /// An `i32` field as an `Int` (a count or an enum), which must be at least `minimum`.
  mutating func int(_ type: UInt8, minimum: Int = Int.min) throws(ParquetError) -> Int {
    let value = try integer(type)
    guard value >= minimum, value <= Int64(Int32.max) || type == WireType.i64 else {
      throw corrupt("the value \(value) is out of range")
    }
    return Int(value)
  }

  /// A bool field (its value is in the field header's type, or a byte inside a list).
  mutating func bool(_ type: UInt8) throws(ParquetError) -> Bool {
    switch type {
    case WireType.boolTrue: return true
    case WireType.boolFalse: return false
    default: throw corrupt("a bool field of wire type \(type)")
    }
  }

  /// A binary field's bytes (the range in `bytes`).
  mutating func binary(_ type: UInt8) throws(ParquetError) -> Range<Int> {
    guard type == WireType.binary else { throw corrupt("a binary field of wire type \(type)") }
    let length = try varint()
    guard length <= UInt64(end - position) else { throw corrupt("a binary of \(length) bytes runs past the end") }
    let range = position..<position + Int(length)
    position = range.upperBound
    return range
  }

  /// A string field (invalid UTF-8 is repaired: names are for messages and matching only).
  mutating func string(_ type: UInt8) throws(ParquetError) -> String {
    String(decoding: bytes[try binary(type)], as: UTF8.self)
  }

  /// A list or set header: its size (at most the bytes left) and element type.
  mutating func listHeader(_ type: UInt8) throws(ParquetError) -> (count: Int, element: UInt8) {
    guard type == WireType.list || type == WireType.set else { throw corrupt("a list field of wire type \(type)") }
    let header = try byte()
    var count = UInt64(header >> 4)
    if count == 15 { count = try varint() }
    guard count <= UInt64(end - position) else { throw corrupt("a list of \(count) elements runs past the end") }
    return (Int(count), header & 15)
  }

  /// Skips a value of wire type `type` (nested structs, lists and maps included).
  mutating func skip(_ type: UInt8, depth: Int = 0) throws(ParquetError) {
    guard depth < Self.maximumDepth else { throw corrupt("values nested deeper than \(Self.maximumDepth)") }
    switch type {
    case WireType.boolTrue, WireType.boolFalse: return
    case WireType.byte: _ = try byte()
    case WireType.i16, WireType.i32, WireType.i64: _ = try varint()
    case WireType.double:
      guard end - position >= 8 else { throw corrupt("it ends early") }
      position += 8
    case WireType.binary: _ = try binary(type)
    case WireType.list, WireType.set:
      let (count, element) = try listHeader(type)
      for _ in 0..<count { try skipElement(element, depth: depth + 1) }
    case WireType.map:
      let count = try varint()
      guard count > 0 else { return }
      guard count <= UInt64(end - position) else { throw corrupt("a map of \(count) entries runs past the end") }
      let types = try byte()
      for _ in 0..<count {
        try skipElement(types >> 4, depth: depth + 1)
        try skipElement(types & 15, depth: depth + 1)
      }
    case WireType.structure:
      var last = 0
      while let field = try field(after: &last) { try skip(field.type, depth: depth + 1) }
    default:
      throw corrupt("an unknown wire type \(type)")
    }
  }

  /// Skips a list, set or map element (a bool there is a whole byte).
  private mutating func skipElement(_ type: UInt8, depth: Int) throws(ParquetError) {
    if type == WireType.boolTrue || type == WireType.boolFalse { _ = try byte() } else { try skip(type, depth: depth) }
  }

  /// Reads a list of `element`s with `read`, checking the element type.
  mutating func list<Element>(
    _ type: UInt8, of element: UInt8,
    _ read: (inout ThriftCompactReader) throws(ParquetError) -> Element
  ) throws(ParquetError) -> [Element] {
    let (count, actual) = try listHeader(type)
    guard
      count == 0 || actual == element || (element == WireType.i32 && (actual == WireType.i16 || actual == WireType.i64))
    else {
      throw corrupt("a list of wire type \(actual) where \(element) was expected")
    }
    var result: [Element] = []
    result.reserveCapacity(min(count, 1_024))  // each element takes a byte; its value may take far more
    for _ in 0..<count { result.append(try read(&self)) }
    return result
  }
}
