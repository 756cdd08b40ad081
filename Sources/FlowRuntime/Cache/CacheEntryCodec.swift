import FlowGraph

/// The binary format of a run-cache entry (one file per node key; see
/// `Documentation/RunCache.md`). Little-endian throughout:
///
/// ```
/// header (48 bytes): "FLOWCACH"  format version u32  byte-order mark u32 (0x01020304)
///                    the key (32 bytes)
/// payload:           target flag u8 [device u64 inode u64 size i64 mtime-ns i64]
///                    port count u32, then per port: name, value
/// value:             tag u8: 0 null, 1 number f64, 2 integer i64, 3 bool u8, 4 string,
///                    5 list (count u64, values), 6 record (count u64, name + value, in order),
///                    7 table (rows u64, columns u32, per column: name, column)
/// column:            type u8 (0 integer, 1 number, 2 bool, 3 string), null count u64,
///                    validity word count u64 + words, then the cells as they lie in memory:
///                    integer i64 × rows, number f64 × rows, bool u8 × rows, string: layout u8
///                    (0 flat, 1 dictionary), bytes (u64 + bytes), offsets (u64 + i64 each),
///                    [codes (u64 + u32 each)]
/// string / name:     u64 byte count + UTF-8 bytes
/// trailer (16 bytes): the byte count before the trailer u64, their checksum u64
/// ```
///
/// The trailer lets an entry be written in one pass through a fixed buffer
/// (`UnsafeCacheEntrySink`): a table is never gathered into one array before it is written.
/// A changed format bumps `formatVersion`; an entry of another version is ignored.
package enum CacheEntryCodec {
  /// The first 8 bytes of every entry.
  static let magic: [UInt8] = Array("FLOWCACH".utf8)
  /// The version of this layout.
  package static let formatVersion: UInt32 = 3
  static let byteOrderMark: UInt32 = 0x0102_0304
  /// The bytes before the payload.
  static let headerSize = 48
  /// The bytes after the payload.
  static let trailerSize = 16
  /// The deepest nesting of lists and records an entry may hold (deeper values are not kept).
  package static let maximumDepth = 64

  /// The bytes of `entry`, stored under `key`; `nil` for a value nested deeper than
  /// `maximumDepth`.
  package static func encode(_ entry: CacheEntry, key: CacheKey) -> [UInt8]? {
    guard encodedSize(entry) != nil else { return nil }
    var bytes: [UInt8] = []
    try? encode(entry, key: key) { bytes.append(contentsOf: $0) }
    return bytes
  }

  /// The byte count of `entry`'s encoding, or `nil` for a value nested deeper than
  /// `maximumDepth` (such an entry is not kept). Touches no cell.
  package static func encodedSize(_ entry: CacheEntry) -> Int? {
    var size = headerSize + 1 + (entry.target == nil ? 0 : 32) + 4 + trailerSize
    for (port, value) in entry.outputs {
      guard let valueSize = encodedSize(value, depth: 0) else { return nil }
      size += 8 + port.utf8.count + valueSize
    }
    return size
  }

  private static func encodedSize(_ value: Value, depth: Int) -> Int? {
    guard depth < maximumDepth else { return nil }
    switch value {
    case .null: return 1
    case .number, .integer: return 9
    case .bool: return 2
    case .string(let text): return 9 + text.utf8.count
    case .list(let items):
      var size = 9
      for item in items {
        guard let itemSize = encodedSize(item, depth: depth + 1) else { return nil }
        size += itemSize
      }
      return size
    case .record(let fields):
      var size = 9
      for (name, field) in fields {
        guard let fieldSize = encodedSize(field, depth: depth + 1) else { return nil }
        size += 8 + name.utf8.count + fieldSize
      }
      return size
    case .table(let table):
      var size = 1 + 8 + 4
      for (name, column) in zip(table.columnNames, table.columns) { size += 8 + name.utf8.count + encodedSize(column) }
      return size
    }
  }

  private static func encodedSize(_ column: Column) -> Int {
    let words = column.validity.nullCount == 0 ? 0 : column.validity.words.count
    let head = 1 + 8 + 8 + 8 * words
    switch column.storage {
    case .integer(let values): return head + 8 * values.count
    case .number(let values): return head + 8 * values.count
    case .bool(let values): return head + values.count
    case .string(let strings):
      let codes = strings.storedCodes.map { 8 + 4 * $0.count } ?? 0
      return head + 1 + 8 + strings.storedBytes.count + 8 + 8 * strings.storedOffsets.count + codes
    }
  }

  /// Hands the bytes of `entry`, stored under `key`, to `emit` in chunks, in order (the
  /// caller checked `encodedSize` first: a value nested too deep is written truncated). Each
  /// chunk is valid only during the call; all but the last are `UnsafeCacheEntrySink.chunkSize`
  /// bytes, page-aligned.
  ///
  /// - Throws: what `emit` throws.
  package static func encode(
    _ entry: CacheEntry, key: CacheKey, emit: @escaping (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    var sink = UnsafeCacheEntrySink(emit: emit)
    defer { sink.deallocate() }
    for byte in magic { try sink.append(byte) }
    try sink.append(formatVersion)
    try sink.append(byteOrderMark)
    try sink.append(contentsOf: key.bytes)
    if let target = entry.target {
      try sink.append(UInt8(1))
      try sink.append(target.device)
      try sink.append(target.inode)
      try sink.append(UInt64(bitPattern: target.size))
      try sink.append(UInt64(bitPattern: target.modified))
    } else {
      try sink.append(UInt8(0))
    }
    try sink.append(UInt32(entry.outputs.count))
    for (port, value) in entry.outputs {
      try sink.append(port)
      try encode(value, into: &sink, depth: 0)
    }
    try sink.finish()
  }

  private static func encode(_ value: Value, into sink: inout UnsafeCacheEntrySink, depth: Int) throws {
    guard depth < maximumDepth else { return }
    switch value {
    case .null: try sink.append(UInt8(0))
    case .number(let x):
      try sink.append(UInt8(1))
      try sink.append(x.bitPattern)
    case .integer(let n):
      try sink.append(UInt8(2))
      try sink.append(UInt64(bitPattern: n))
    case .bool(let flag):
      try sink.append(UInt8(3))
      try sink.append(UInt8(flag ? 1 : 0))
    case .string(let text):
      try sink.append(UInt8(4))
      try sink.append(text)
    case .list(let items):
      try sink.append(UInt8(5))
      try sink.append(UInt64(items.count))
      for item in items { try encode(item, into: &sink, depth: depth + 1) }
    case .record(let fields):
      try sink.append(UInt8(6))
      try sink.append(UInt64(fields.count))
      for (name, field) in fields {
        try sink.append(name)
        try encode(field, into: &sink, depth: depth + 1)
      }
    case .table(let table):
      try sink.append(UInt8(7))
      try sink.append(UInt64(table.rowCount))
      try sink.append(UInt32(table.columnCount))
      for (name, column) in zip(table.columnNames, table.columns) {
        try sink.append(name)
        try encode(column, into: &sink)
      }
    }
  }

  private static func encode(_ column: Column, into sink: inout UnsafeCacheEntrySink) throws {
    let tag: UInt8 =
      switch column.type {
      case .integer: 0
      case .number: 1
      case .bool: 2
      case .string: 3
      }
    try sink.append(tag)
    try sink.append(UInt64(column.validity.nullCount))
    let words = column.validity.nullCount == 0 ? [] : column.validity.words
    try sink.append(UInt64(words.count))
    try sink.append(contentsOf: words)
    switch column.storage {
    case .integer(let values): try sink.append(contentsOf: values)
    case .number(let values): try sink.append(contentsOf: values)
    case .bool(let values): try sink.append(contentsOf: values)
    case .string(let strings):
      try sink.append(UInt8(strings.storedCodes == nil ? 0 : 1))
      try sink.append(UInt64(strings.storedBytes.count))
      try sink.append(contentsOf: strings.storedBytes)
      try sink.append(UInt64(strings.storedOffsets.count))
      try sink.append(contentsOf: strings.storedOffsets)
      if let codes = strings.storedCodes {
        try sink.append(UInt64(codes.count))
        try sink.append(contentsOf: codes)
      }
    }
  }
}
