/// Writes the Thrift compact protocol (the format `ThriftCompactReader` reads): Parquet's
/// footer and page headers.
///
/// Invariants: every struct begun is ended (`endStruct` writes its stop byte and restores the
/// enclosing struct's last field id); field ids within a struct are written in increasing
/// order, so each header is one byte (a delta of 1…15) unless the jump is larger.
struct ThriftCompactWriter {
  typealias Wire = ThriftCompactReader.WireType

  private(set) var bytes: [UInt8] = []
  /// The last field id of each open struct, innermost last (the message itself is the first).
  private var lastField = [0]

  /// The bytes of a whole message (`write` fills the top-level struct; its stop byte is added).
  static func message(_ write: (inout ThriftCompactWriter) -> Void) -> [UInt8] {
    var writer = ThriftCompactWriter()
    write(&writer)
    writer.bytes.append(0)
    return writer.bytes
  }

  mutating func varint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  mutating func zigzag(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

  mutating func fieldHeader(_ id: Int, _ type: UInt8) {
    let delta = id - lastField[lastField.count - 1]
    if delta > 0, delta <= 15 {
      bytes.append(UInt8(delta) << 4 | type)
    } else {
      bytes.append(type)
      zigzag(Int64(id))
    }
    lastField[lastField.count - 1] = id
  }

  mutating func i32(_ id: Int, _ value: Int) {
    fieldHeader(id, Wire.i32)
    zigzag(Int64(value))
  }

  /// A bool field: its value is the field header's type (1 true, 2 false).
  mutating func bool(_ id: Int, _ value: Bool) { fieldHeader(id, value ? 1 : 2) }

  mutating func i64(_ id: Int, _ value: Int) {
    fieldHeader(id, Wire.i64)
    zigzag(Int64(value))
  }

  mutating func binary(_ id: Int, _ value: some Collection<UInt8>) {
    fieldHeader(id, Wire.binary)
    element(binary: value)
  }

  mutating func string(_ id: Int, _ value: String) { binary(id, Array(value.utf8)) }

  /// Opens a struct field (close it with `endStruct`).
  mutating func beginStruct(_ id: Int) {
    fieldHeader(id, Wire.structure)
    lastField.append(0)
  }

  /// Opens a struct that is a list element (close it with `endStruct`).
  mutating func beginStructElement() { lastField.append(0) }

  mutating func endStruct() {
    bytes.append(0)
    lastField.removeLast()
  }

  /// A list field's header: `count` elements of wire type `element` follow.
  mutating func listHeader(_ id: Int, count: Int, element: UInt8) {
    fieldHeader(id, Wire.list)
    if count < 15 {
      bytes.append(UInt8(count) << 4 | element)
    } else {
      bytes.append(0xF0 | element)
      varint(UInt64(count))
    }
  }

  /// A list element of wire type `i32`.
  mutating func element(i32 value: Int) { zigzag(Int64(value)) }

  /// A list element of wire type `binary`.
  mutating func element(binary value: some Collection<UInt8>) {
    varint(UInt64(value.count))
    bytes.append(contentsOf: value)
  }
}
