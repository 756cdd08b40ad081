import FlowRuntime

/// One worker's part of the parallel reader (`UnsafeCSVBlockReader`): the serial scan and
/// conversion of `UnsafeCSVColumnParser.swift` over a run of whole records.
///
/// Invariants: `buffer` is a run of whole records inside the caller's block (it outlives this
/// call and is only read); the column parsers are reached through a buffer pointer only inside
/// `withUnsafeMutableBufferPointer` over their array, at slots below `kept.count`, and
/// `kept[slot] < width` (a field of every record: a scanner's record is used once
/// `fields.width == width` is checked, a run's records are `width` wide); each of `direct`'s slot
/// pointers has room for `limit` rows of this chunk alone (`UnsafeCSVDirectParser`), and no
/// more than `limit` records are converted (a chunk with more returns `nil`); each string
/// column's spans have room for `limit` rows (`UnsafeCSVStringSpans`).
extension CSVReader {
  /// The records of `buffer`, a run of whole records from inside a file (not its start): the
  /// pieces of the columns `kept` (as text only if `textOnly`), and the row count; `nil` if
  /// the run is not plain — a ragged row, bad quoting, a stray quote or an error (the caller
  /// then finds the boundaries again knowing the quotes, or reads serially). Chunks cut at line
  /// feeds without looking at the quotes are right whenever every chunk parses: a cut inside
  /// quotes leaves the chunk before it (whose start is right) with a quoted field not closed.
  ///
  /// The columns `direct` (field index, the chunk's first row in the column, whether it is a
  /// number column) are converted straight into their columns; their parsers come back in
  /// `direct`'s order. The string columns `strings` (fields; only with a `limit`) record where
  /// their cells lie in `buffer` (`UnsafeCSVStringSpans`, `readable` bytes of the block lying
  /// from its start), in `strings`' order.
  func parseChunk(
    _ buffer: UnsafeBufferPointer<UInt8>, width: Int, kept: [Int], textOnly: Bool, expectedRows: Int,
    direct: [(field: Int, slots: UnsafeMutableRawPointer, number: Bool)] = [], limit: Int = .max,
    strings: [Int] = [], readable: Int = 0
  )
    -> (
      pieces: [CSVPiece], rows: Int, quotingBytes: Int, direct: [UnsafeCSVDirectParser], spans: [UnsafeCSVStringSpans]
    )?
  {
    var source = UnsafeCSVRecordSource(
      buffer, delimiter: delimiter, width: width, indexes: strategy.indexesPlainRecords)
    var fields = UnsafeCSVFieldBuffer(capacity: Swift.max(64, width))
    defer {
      fields.deallocate()
      source.deallocate()
    }
    var columns = [UnsafeCSVColumnParser](
      repeating: textOnly
        ? .text(encodes: strategy.encodesDictionaries) : UnsafeCSVColumnParser(encodes: strategy.encodesDictionaries),
      count: kept.count)
    for index in columns.indices {
      columns[index].expectedRows = expectedRows
      columns[index].expectedTextBytes = buffer.count
    }
    var scratch: [UInt8] = []
    var rows = 0
    let nulls = CSVNullTest(nullTokens)
    let numbersFirst = nulls.numbersFirst
    let skipFrom = Swift.max(kept.max() ?? -1, direct.map(\.field).max() ?? -1, strings.max() ?? -1) + 1
    precondition(strings.isEmpty || limit < .max, "string spans need the chunk's record count")
    var texts = strings.map { _ in UnsafeCSVStringSpans(chunk: buffer, readable: readable, capacity: limit) }
    var directs = direct.map { UnsafeCSVDirectParser(slots: $0.slots, limit: limit, number: $0.number) }
    let directFields = direct.map(\.field)
    let bytes = source.scanner.buffer
    let plain: Bool = columns.withUnsafeMutableBufferPointer { parsers in
      directs.withUnsafeMutableBufferPointer { numeric in
        texts.withUnsafeMutableBufferPointer { spans in
          while true {
            let batch: UnsafeCSVRecordSource.Batch
            do {
              batch = try source.nextBatch(into: &fields, skipFrom: skipFrom, most: Swift.max(1, limit &- rows))
            } catch { return false }
            let scanner = source.scanner
            switch batch {
            case .end:
              return true
            case .run(let run):
              // A column at a time: each column's loop stays hot over the run's records.
              guard run.width == width, run.count <= limit &- rows else { return false }
              for index in 0..<directFields.count {
                numeric[index].appendColumn(
                  run, field: directFields[index], bytes, nulls: nulls, numbersFirst: numbersFirst, scanner)
              }
              for index in 0..<strings.count {
                spans[index].appendColumn(run, field: strings[index], nulls: nulls, scanner)
              }
              for slot in 0..<kept.count {
                parsers[slot].appendColumn(
                  run, field: kept[slot], nulls: nulls, numbersFirst: numbersFirst, scanner, scratch: &scratch)
              }
              rows &+= run.count
            case .record:
              guard fields.width == width, rows < limit else { return false }
              for index in 0..<directFields.count {
                let field = fields[directFields[index]]
                if numbersFirst && numeric[index].appendPlain(field, bytes) { continue }
                if nulls.isNull(field, scanner) {
                  numeric[index].appendNull()
                } else {
                  numeric[index].append(field, bytes)
                }
              }
              for index in 0..<strings.count {
                let field = fields[strings[index]]
                if nulls.isNull(field, scanner) { spans[index].appendNull() } else { spans[index].append(field) }
              }
              for slot in 0..<kept.count {
                let field = fields[kept[slot]]
                if nulls.isNull(field, scanner) {
                  parsers[slot].appendNull()
                } else {
                  parsers[slot].append(field, scanner, scratch: &scratch)
                }
              }
              rows &+= 1
            }
          }
        }
      }
    }
    let scanner = source.scanner
    guard plain, scanner.strayQuotes == 0 else { return nil }
    return (columns.map { $0.piece() }, rows, scanner.quotingBytes, directs, texts)
  }
}
