/// Why an entry's bytes were not trusted (the cache then ignores the entry and replaces it).
package struct CacheEntryError: Error, Sendable, Equatable, CustomStringConvertible {
  package var reason: String
  package init(_ reason: String) { self.reason = reason }
  package var description: String { reason }
}

extension CacheEntryCodec {
  /// The entry in `bytes`, checked: magic, version, byte order, length, checksum and the key it
  /// was stored under; every count is checked against the bytes left and every string column
  /// against its invariants, so no input traps.
  ///
  /// - Throws: `CacheEntryError` saying what is wrong (`truncated`, `checksum mismatch`,
  ///   `format version 7, expected 1`, …).
  package static func decode(_ bytes: [UInt8], key: CacheKey) throws(CacheEntryError) -> CacheEntry {
    guard bytes.count >= headerSize + trailerSize else { throw CacheEntryError("truncated (\(bytes.count) bytes)") }
    guard Array(bytes[0..<8]) == magic else { throw CacheEntryError("not a cache entry") }
    var header = CacheByteReader(bytes, at: 8)
    let version = try header.integer(UInt32.self)
    guard version == formatVersion else {
      throw CacheEntryError("format version \(version), expected \(formatVersion)")
    }
    guard try header.integer(UInt32.self) == byteOrderMark else {
      throw CacheEntryError("written with another byte order")
    }
    let end = bytes.count - trailerSize
    var trailer = CacheByteReader(bytes, at: end)
    guard try trailer.integer(UInt64.self) == UInt64(end) else {
      throw CacheEntryError("truncated (\(bytes.count) bytes)")
    }
    let checksum = try trailer.integer(UInt64.self)
    guard UnsafeCacheBytes.Checksum.of(bytes, 0..<end) == checksum else { throw CacheEntryError("checksum mismatch") }
    guard Array(bytes[16..<48]) == key.bytes else { throw CacheEntryError("stored under another key") }
    var reader = CacheByteReader(bytes, at: headerSize, end: end)
    var target: FileIdentity?
    if try reader.byte() == 1 {
      target = FileIdentity(
        device: try reader.integer(UInt64.self), inode: try reader.integer(UInt64.self),
        size: Int64(bitPattern: try reader.integer(UInt64.self)),
        modified: Int64(bitPattern: try reader.integer(UInt64.self)))
    }
    let count = Int(try reader.integer(UInt32.self))
    var outputs: [(port: String, value: Value)] = []
    for _ in 0..<min(count, end) {
      let port = try reader.string()
      outputs.append((port, try value(&reader, depth: 0)))
    }
    guard outputs.count == count, reader.position == end else { throw CacheEntryError("malformed payload") }
    return CacheEntry(outputs: outputs, target: target)
  }

  private static func value(_ reader: inout CacheByteReader, depth: Int) throws(CacheEntryError) -> Value {
    guard depth < maximumDepth else { throw CacheEntryError("nested deeper than \(maximumDepth)") }
    switch try reader.byte() {
    case 0: return .null
    case 1: return .number(Double(bitPattern: try reader.integer(UInt64.self)))
    case 2: return .integer(Int64(bitPattern: try reader.integer(UInt64.self)))
    case 3: return .bool(try reader.byte() != 0)
    case 4: return .string(try reader.string())
    case 5:
      let count = try reader.count()
      var items: [Value] = []
      for _ in 0..<count { items.append(try value(&reader, depth: depth + 1)) }
      return .list(items)
    case 6:
      let count = try reader.count()
      var fields = Record()
      for _ in 0..<count {
        let name = try reader.string()
        fields[name] = try value(&reader, depth: depth + 1)
      }
      return .record(fields)
    case 7: return .table(try table(&reader))
    case let tag: throw CacheEntryError("unknown value tag \(tag)")
    }
  }

  private static func table(_ reader: inout CacheByteReader) throws(CacheEntryError) -> Table {
    let rowValue = try reader.integer(UInt64.self)
    guard rowValue <= UInt64(Int32.max) else { throw CacheEntryError("malformed table") }
    let rows = Int(rowValue)
    let columnCount = Int(try reader.integer(UInt32.self))
    var names: [String] = []
    var columns: [Column] = []
    for _ in 0..<min(columnCount, reader.remaining) {
      names.append(try reader.string())
      columns.append(try column(&reader, rows: rows))
    }
    guard columns.count == columnCount else { throw CacheEntryError("truncated table") }
    do { return try Table(names: names, columns: columns, rowCount: rows) } catch {
      throw CacheEntryError("malformed table: \(error)")
    }
  }

  private static func column(_ reader: inout CacheByteReader, rows: Int) throws(CacheEntryError) -> Column {
    let type = try reader.byte()
    let nullCount = try reader.count()
    guard nullCount <= rows else { throw CacheEntryError("malformed validity") }
    let words = try reader.integers(UInt64.self, count: try reader.count())
    var validity = Validity(allValid: rows)
    if nullCount > 0 {
      guard words.count == (rows + 63) / 64 else { throw CacheEntryError("malformed validity") }
      var nullRows: [Int32] = []
      nullRows.reserveCapacity(nullCount)
      for row in 0..<rows where (words[row >> 6] >> UInt64(row & 63)) & 1 == 0 {
        nullRows.append(Int32(truncatingIfNeeded: row))
      }
      guard nullRows.count == nullCount, rows <= Int(Int32.max) else { throw CacheEntryError("malformed validity") }
      validity = Validity(count: rows, nullRows: nullRows)
    }
    let storage: Column.Storage
    switch type {
    case 0: storage = .integer(try reader.integers(Int64.self, count: rows))
    case 1: storage = .number(try reader.doubles(count: rows))
    case 2: storage = .bool(try reader.bytes(rows).map { $0 != 0 })
    case 3: storage = .string(try strings(&reader, rows: rows))
    default: throw CacheEntryError("unknown column type \(type)")
    }
    return Column(storage, validity: validity)
  }

  private static func strings(_ reader: inout CacheByteReader, rows: Int) throws(CacheEntryError) -> StringColumn {
    let layout = try reader.byte()
    let bytes = try reader.bytes(try reader.count())
    let offsets = try reader.integers(Int.self, count: try reader.count())
    guard offsets.first == 0, offsets.last == bytes.count else { throw CacheEntryError("malformed string offsets") }
    for index in 1..<offsets.count where offsets[index] < offsets[index - 1] {
      throw CacheEntryError("malformed string offsets")
    }
    var column = StringColumn()
    column.storedBytes = bytes
    column.storedOffsets = offsets
    if layout == 1 {
      let codes = try reader.integers(UInt32.self, count: try reader.count())
      let entries = offsets.count - 1
      guard codes.count == rows, codes.allSatisfy({ Int($0) < entries }) else {
        throw CacheEntryError("malformed dictionary codes")
      }
      column.storedCodes = codes
    } else {
      guard offsets.count == rows + 1 else { throw CacheEntryError("malformed string column") }
    }
    return column
  }
}

/// A cursor over an entry's bytes whose every read checks what is left.
struct CacheByteReader {
  let bytes: [UInt8]
  private(set) var position: Int
  /// Where the readable bytes end (the trailer is not read through a payload's reader).
  let end: Int

  init(_ bytes: [UInt8], at position: Int, end: Int? = nil) {
    self.bytes = bytes
    self.position = position
    self.end = min(end ?? bytes.count, bytes.count)
  }

  var remaining: Int { end - position }

  mutating func byte() throws(CacheEntryError) -> UInt8 {
    guard position < end else { throw CacheEntryError("truncated") }
    position += 1
    return bytes[position - 1]
  }

  mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws(CacheEntryError) -> T {
    let size = MemoryLayout<T>.size
    guard remaining >= size else { throw CacheEntryError("truncated") }
    var value: T = 0
    for index in 0..<size { value |= T(truncatingIfNeeded: bytes[position + index]) << (8 * index) }
    position += size
    return value
  }

  /// A count (u64) that cannot exceed the bytes left (every counted item takes at least one).
  mutating func count() throws(CacheEntryError) -> Int {
    let value = try integer(UInt64.self)
    guard value <= UInt64(remaining) else { throw CacheEntryError("truncated") }
    return Int(value)
  }

  mutating func bytes(_ count: Int) throws(CacheEntryError) -> [UInt8] {
    guard count >= 0, count <= remaining else { throw CacheEntryError("truncated") }
    position += count
    return Array(bytes[position - count..<position])
  }

  mutating func string() throws(CacheEntryError) -> String {
    let raw = try bytes(try count())
    guard let text = String(validating: raw, as: UTF8.self) else { throw CacheEntryError("malformed text") }
    return text
  }

  mutating func integers<T: FixedWidthInteger>(_ type: T.Type, count: Int) throws(CacheEntryError) -> [T] {
    guard count >= 0, count <= remaining / MemoryLayout<T>.stride,
      let values = UnsafeCacheBytes.integers(type, count: count, from: bytes, at: position)
    else {
      throw CacheEntryError("truncated")
    }
    position += count * MemoryLayout<T>.stride
    return values
  }

  mutating func doubles(count: Int) throws(CacheEntryError) -> [Double] {
    guard count >= 0, count <= remaining / MemoryLayout<Double>.stride,
      let values = UnsafeCacheBytes.doubles(count: count, from: bytes, at: position)
    else { throw CacheEntryError("truncated") }
    position += count * MemoryLayout<Double>.stride
    return values
  }
}
