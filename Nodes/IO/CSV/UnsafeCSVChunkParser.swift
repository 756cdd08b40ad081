import FlowRuntime

/// One worker's part of the parallel reader (`UnsafeCSVBlockReader`): the serial scan and
/// conversion of `UnsafeCSVColumnParser.swift` over a run of whole records.
///
/// Invariants: `buffer` is a run of whole records inside the caller's block (it outlives this
/// call and is only read); the column parsers are reached through a buffer pointer only inside
/// `withUnsafeMutableBufferPointer` over their array, at slots below `kept.count`, and
/// `kept[slot] < width == fields.count` once the width is checked.
extension CSVReader {
  /// The records of `buffer`, a run of whole records from inside a file (not its start): the
  /// pieces of the columns `kept` (as text only if `textOnly`), and the row count; `nil` if
  /// the run is not plain — a ragged row, bad quoting, or any quote if `quotes` is false (the
  /// caller then finds the boundaries again knowing the quotes, or reads serially).
  func parseChunk(_ buffer: UnsafeBufferPointer<UInt8>, width: Int, kept: [Int], textOnly: Bool, expectedRows: Int,
                  quotes: Bool) -> (pieces: [CSVPiece], rows: Int, quotingBytes: Int)? {
    var scanner = UnsafeCSVScanner(buffer, delimiter: delimiter, atFileStart: false)
    var fields = UnsafeCSVFieldBuffer(capacity: Swift.max(64, width))
    defer { fields.deallocate() }
    var columns = [UnsafeCSVColumnParser](repeating: textOnly ? .text() : UnsafeCSVColumnParser(), count: kept.count)
    for index in columns.indices {
      columns[index].expectedRows = expectedRows
      columns[index].expectedTextBytes = buffer.count
    }
    var scratch: [UInt8] = []
    var rows = 0
    let nulls = CSVNullTest(nullTokens)
    let skipFrom = (kept.max() ?? -1) + 1
    let plain: Bool = columns.withUnsafeMutableBufferPointer { parsers in
      while true {
        let next: Int?
        do { next = try scanner.nextRecord(into: &fields, skipFrom: skipFrom) } catch { return false }
        guard next != nil else { return true }
        guard fields.width == width else { return false }
        for slot in 0..<kept.count {
          let field = fields[kept[slot]]
          if nulls.isNull(field, scanner) { parsers[slot].appendNull() } else {
            parsers[slot].append(field, scanner, scratch: &scratch)
          }
        }
        rows += 1
      }
    }
    guard plain, scanner.strayQuotes == 0, quotes || scanner.quotingBytes == 0 else { return nil }
    return (columns.map { $0.piece() }, rows, scanner.quotingBytes)
  }
}
