import FlowGraph
import FlowRuntime

/// The writers' bytes of a large table in morsels: each morsel's rows formatted into a buffer
/// of their own on the workers (a batch of morsels at a time, so the bytes in flight stay
/// bounded), and the buffers handed on in morsel order into the one atomic file. A morsel's
/// bytes are those its rows have in the whole table's output, so the file is the same bytes at
/// any worker count.
enum MorselWriter {
  /// Hands the CSV bytes of `table` (as `writer.bytes(of:)` makes them) to `emit`, in order.
  ///
  /// - Throws: `CancellationError` if the task is cancelled; what `emit` throws.
  static func csv(
    _ table: Table, writer: CSVWriter, morsels: TableMorsels,
    _ emit: (ArraySlice<UInt8>) throws -> Void
  ) throws {
    let ranges = morsels.ranges(table.rowCount)
    guard ranges.count > 1 else { return try emit(try writer.bytes(of: table)[...]) }
    // Every piece starts with the header (it depends on the names only): kept once.
    let header = try writer.bytes(of: try rows(0..<0, of: table))
    try emit(header[...])
    try inBatches(
      ranges, morsels: morsels,
      { range in
        guard let bytes = try? writer.bytes(of: try rows(range, of: table)) else { return nil }
        return Array(bytes[header.count...])
      }, emit)
  }

  /// Hands `writeJSON`'s bytes of `table` (its JSON rows, then a line feed) to `emit`, in order.
  ///
  /// - Throws: `CancellationError` if the task is cancelled; what `emit` throws.
  static func json(
    _ table: Table, pretty: Bool, morsels: TableMorsels,
    _ emit: (ArraySlice<UInt8>) throws -> Void
  ) throws {
    let options: JSONValue.WritingOptions = pretty ? [.prettyPrinted] : []
    let ranges = morsels.ranges(table.rowCount)
    guard ranges.count > 1 else {
      var bytes = table.jsonRows.serializedBytes(options: options)
      bytes.append(UInt8(ascii: "\n"))
      return try emit(bytes[...])
    }
    // A non-empty array is `[`, its elements with their separators, then `\n]` (pretty) or
    // `]`: a morsel's elements are its array without those, the morsels joined by commas.
    let closing = pretty ? 2 : 1
    try emit([UInt8(ascii: "[")][...])
    var first = true
    try inBatches(
      ranges, morsels: morsels,
      { range in
        guard !Task.isCancelled, let piece = try? rows(range, of: table) else { return nil }
        let bytes = piece.jsonRows.serializedBytes(options: options)
        return Array(bytes[1..<(bytes.count - closing)])
      }
    ) { bytes in
      if !first { try emit([UInt8(ascii: ",")][...]) }
      first = false
      try emit(bytes)
    }
    try emit((pretty ? Array("\n]\n".utf8) : Array("]\n".utf8))[...])
  }

  /// Hands the JSON Lines bytes of `table` (each row a compact JSON object on a line of its
  /// own, columns in order) to `emit`, in order; no rows, no bytes.
  ///
  /// - Throws: `CancellationError` if the task is cancelled; what `emit` throws.
  static func jsonLines(_ table: Table, morsels: TableMorsels, _ emit: (ArraySlice<UInt8>) throws -> Void) throws {
    try inBatches(
      morsels.ranges(table.rowCount), morsels: morsels,
      { range in
        guard !Task.isCancelled, let piece = try? rows(range, of: table), case .array(let objects) = piece.jsonRows
        else { return nil }
        var bytes: [UInt8] = []
        for object in objects {
          bytes += object.serializedBytes(options: [])
          bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
      }, emit)
  }

  /// Rows `range` of `table`, each column copied on the calling thread.
  private static func rows(_ range: Range<Int>, of table: Table) throws -> Table {
    do {
      return try Table(names: table.columnNames, columns: table.columns.map { $0.slice(range) }, rowCount: range.count)
    } catch {
      throw TableParameters.failure(error)
    }
  }

  /// `format` of each range on the workers, `2 × workers` ranges at a time, each result handed
  /// to `emit` in order; a `nil` result (cancelled) stops with `CancellationError`.
  private static func inBatches(
    _ ranges: [Range<Int>], morsels: TableMorsels,
    _ format: @Sendable (Range<Int>) -> [UInt8]?,
    _ emit: (ArraySlice<UInt8>) throws -> Void
  ) throws {
    let batch = 2 * morsels.workers
    for start in stride(from: 0, to: ranges.count, by: batch) {
      let chunk = Array(ranges[start..<min(ranges.count, start + batch)])
      let parts = morsels.map(items: chunk.count) { format(chunk[$0]) }
      for part in parts {
        guard let part else { throw CancellationError() }
        try emit(part[...])
      }
    }
  }
}
