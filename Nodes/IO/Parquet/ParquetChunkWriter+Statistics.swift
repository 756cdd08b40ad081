import FlowRuntime

/// A chunk's statistics: the least and greatest valid value, `PLAIN`-encoded as Parquet's
/// `min_value`/`max_value` (signed integers, doubles by value with NaN left out and zero as
/// −0.0 below and +0.0 above, false < true, strings by their UTF-8 bytes unsigned).
extension ParquetChunkWriter {
  /// The longest string kept as a bound; a chunk with a longer bound gets none (the footer
  /// stays small).
  static let maximumBoundBytes = 1_024

  /// The chunk's bounds, or nil when it has no valid (non-NaN) value.
  func bounds() -> (minimum: [UInt8], maximum: [UInt8])? {
    switch column.storage {
    case .integer(let values):
      var low = Int64.max, high = Int64.min, any = false
      for row in rows where !column.isNull(row) {
        low = min(low, values[row])
        high = max(high, values[row])
        any = true
      }
      return any ? (encoded(UInt64(bitPattern: low)), encoded(UInt64(bitPattern: high))) : nil
    case .number(let values):
      var low = Double.infinity, high = -Double.infinity, any = false
      for row in rows where !column.isNull(row) && !values[row].isNaN {
        low = min(low, values[row])
        high = max(high, values[row])
        any = true
      }
      guard any else { return nil }
      return (encoded((low == 0 ? -0.0 : low).bitPattern), encoded((high == 0 ? 0.0 : high).bitPattern))
    case .bool(let values):
      var seen = (false, false)
      for row in rows where !column.isNull(row) {
        if values[row] { seen.1 = true } else { seen.0 = true }
      }
      guard seen.0 || seen.1 else { return nil }
      return ([seen.0 ? 0 : 1], [seen.1 ? 1 : 0])
    case .string(let strings):
      let checksNulls = column.nullCount > 0
      let found: (low: Range<Int>, high: Range<Int>)?
      let bytes: [UInt8]
      if let codes = strings.codes, let dictionary = strings.dictionary {
        // A dictionary column: the bounds of the entries its rows use (each compared once).
        var used = [Bool](repeating: false, count: dictionary.count)
        for row in rows where !checksNulls || !column.isNull(row) { used[Int(codes[row])] = true }
        bytes = dictionary.bytes
        found = UnsafeParquetBytes.bounds(of: bytes, offsets: dictionary.offsets, entries: 0..<dictionary.count) {
          used[$0]
        }
      } else {
        bytes = strings.bytes
        found = UnsafeParquetBytes.bounds(of: bytes, offsets: strings.offsets, entries: rows) {
          !checksNulls || !column.isNull($0)
        }
      }
      guard let found, found.low.count <= Self.maximumBoundBytes, found.high.count <= Self.maximumBoundBytes else {
        return nil
      }
      return (Array(bytes[found.low]), Array(bytes[found.high]))
    }
  }

  private func encoded(_ bits: UInt64) -> [UInt8] {
    var bytes: [UInt8] = []
    Self.appendLittleEndian(bits, 8, to: &bytes)
    return bytes
  }
}
