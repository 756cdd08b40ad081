import FlowGraph

/// The binary format of a run-cache entry (one file per node key; see
/// `Documentation/RunCache.md`). Little-endian throughout:
///
/// ```
/// header (64 bytes): "FLOWCACH"  format version u32  byte-order mark u32 (0x01020304)
///                    payload length u64  checksum of the payload u64  the key (32 bytes)
/// payload:           target flag u8 [device u64 inode u64 size i64 mtime-ns i64]
///                    port count u32, then per port: name, value
/// value:             tag u8: 0 null, 1 number f64, 2 integer i64, 3 bool u8, 4 string,
///                    5 list (count u64, values), 6 record (count u64, name + value, by name),
///                    7 table (rows u64, columns u32, per column: name, column)
/// column:            type u8 (0 integer, 1 number, 2 bool, 3 string), null count u64,
///                    validity word count u64 + words, then the cells as they lie in memory:
///                    integer i64 × rows, number f64 × rows, bool u8 × rows, string: layout u8
///                    (0 flat, 1 dictionary), bytes (u64 + bytes), offsets (u64 + i64 each),
///                    [codes (u64 + u32 each)]
/// string / name:     u64 byte count + UTF-8 bytes
/// ```
///
/// A changed format bumps `formatVersion`; an entry of another version is ignored.
package enum CacheEntryCodec {
  /// The first 8 bytes of every entry.
  static let magic: [UInt8] = Array("FLOWCACH".utf8)
  /// The version of this layout.
  package static let formatVersion: UInt32 = 1
  static let byteOrderMark: UInt32 = 0x0102_0304
  /// The bytes before the payload.
  static let headerSize = 64
  /// The deepest nesting of lists and records an entry may hold (deeper values are not kept).
  package static let maximumDepth = 64

  /// The bytes of `entry`, stored under `key`; `nil` for a value nested deeper than
  /// `maximumDepth`.
  package static func encode(_ entry: CacheEntry, key: CacheKey) -> [UInt8]? {
    var payload: [UInt8] = []
    if let target = entry.target {
      payload.append(1)
      append(target.device, &payload)
      append(target.inode, &payload)
      append(UInt64(bitPattern: target.size), &payload)
      append(UInt64(bitPattern: target.modified), &payload)
    } else {
      payload.append(0)
    }
    append(UInt32(entry.outputs.count), &payload)
    for (port, value) in entry.outputs {
      append(port, &payload)
      guard encode(value, into: &payload, depth: 0) else { return nil }
    }
    var bytes = magic
    bytes.reserveCapacity(headerSize + payload.count)
    append(formatVersion, &bytes)
    append(byteOrderMark, &bytes)
    append(UInt64(payload.count), &bytes)
    append(UnsafeCacheBytes.checksum(payload, from: 0), &bytes)
    bytes += key.bytes
    bytes += payload
    return bytes
  }

  private static func encode(_ value: Value, into bytes: inout [UInt8], depth: Int) -> Bool {
    guard depth < maximumDepth else { return false }
    switch value {
    case .null: bytes.append(0)
    case .number(let x):
      bytes.append(1)
      append(x.bitPattern, &bytes)
    case .integer(let n):
      bytes.append(2)
      append(UInt64(bitPattern: n), &bytes)
    case .bool(let flag): bytes += [3, flag ? 1 : 0]
    case .string(let text):
      bytes.append(4)
      append(text, &bytes)
    case .list(let items):
      bytes.append(5)
      append(UInt64(items.count), &bytes)
      for item in items where !encode(item, into: &bytes, depth: depth + 1) { return false }
    case .record(let fields):
      bytes.append(6)
      append(UInt64(fields.count), &bytes)
      for name in fields.keys.sorted() {
        append(name, &bytes)
        guard encode(fields[name]!, into: &bytes, depth: depth + 1) else { return false }
      }
    case .table(let table):
      bytes.append(7)
      append(UInt64(table.rowCount), &bytes)
      append(UInt32(table.columnCount), &bytes)
      for (name, column) in zip(table.columnNames, table.columns) {
        append(name, &bytes)
        encode(column, into: &bytes)
      }
    }
    return true
  }

  private static func encode(_ column: Column, into bytes: inout [UInt8]) {
    let tag: UInt8 = switch column.type {
    case .integer: 0
    case .number: 1
    case .bool: 2
    case .string: 3
    }
    bytes.append(tag)
    append(UInt64(column.validity.nullCount), &bytes)
    let words = column.validity.nullCount == 0 ? [] : column.validity.words
    append(UInt64(words.count), &bytes)
    UnsafeCacheBytes.append(words, to: &bytes)
    switch column.storage {
    case .integer(let values): UnsafeCacheBytes.append(values, to: &bytes)
    case .number(let values): UnsafeCacheBytes.append(values, to: &bytes)
    case .bool(let values): bytes += values.map { $0 ? 1 : 0 }
    case .string(let strings):
      bytes.append(strings.storedCodes == nil ? 0 : 1)
      append(UInt64(strings.storedBytes.count), &bytes)
      bytes += strings.storedBytes
      append(UInt64(strings.storedOffsets.count), &bytes)
      UnsafeCacheBytes.append(strings.storedOffsets, to: &bytes)
      if let codes = strings.storedCodes {
        append(UInt64(codes.count), &bytes)
        UnsafeCacheBytes.append(codes, to: &bytes)
      }
    }
  }

  static func append<T: FixedWidthInteger>(_ value: T, _ bytes: inout [UInt8]) {
    var little = value.littleEndian
    for _ in 0..<MemoryLayout<T>.size {
      bytes.append(UInt8(truncatingIfNeeded: little))
      little = little >> 8
    }
  }

  static func append(_ text: String, _ bytes: inout [UInt8]) {
    append(UInt64(text.utf8.count), &bytes)
    bytes += text.utf8
  }
}
