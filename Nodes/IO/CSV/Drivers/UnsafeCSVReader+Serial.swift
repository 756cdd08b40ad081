import FlowRuntime

// Invariants: the serial reader's buffer is the caller's (`withUnsafeBufferPointer`), valid
// for the call and only read; the column parsers are reached through a buffer pointer only
// inside `withUnsafeMutableBufferPointer` over their array, at slots below `kept.count`, with
// `kept[slot] < width == fields.width` (checked per record before any cell is converted).

extension CSVReader {
  /// The table in `input` read in parallel blocks, or `nil` when the block reader leaves it to
  /// the serial read (a small input, records it does not split).
  package func readInBlocks(_ input: CSVInput) throws -> Table? {
    switch input {
    case .file(let file): try UnsafeCSVBlockReader(reader: self).read(file)
    case .bytes(let bytes): try bytes.withUnsafeBufferPointer { try UnsafeCSVBlockReader(reader: self).read($0) }
    }
  }

  /// The table in `bytes` read serially: the reference every other path agrees with.
  package func readSerially(_ bytes: [UInt8]) throws -> Table {
    try bytes.withUnsafeBufferPointer { try parse($0) }
  }

  /// The header's names and where the data starts, or `nil` if the header does not end in
  /// `bytes` (with `complete`, `bytes` is the whole input).
  package func header(in bytes: [UInt8], complete: Bool) -> (names: [String], dataStart: Int)? {
    bytes.withUnsafeBufferPointer { UnsafeCSVBlockReader(reader: self).header($0, complete: complete) }
  }

  /// The table in `bytes`: in blocks where the block reader takes them, else serially.
  ///
  /// - Throws: `TableError` for duplicate header names (before any record is read), `CSVError`
  ///   naming the line of a ragged row or bad quoting, `CancellationError` if the task is
  ///   cancelled.
  package func read(_ bytes: [UInt8]) throws -> Table {
    try readInBlocks(.bytes(bytes)) ?? readSerially(bytes)
  }

  /// Scans `buffer` once on this thread, converting every column kept (`columns`), and again
  /// for columns that turned out to be text after numeric cells: the serial reader, which the
  /// parallel one (`UnsafeCSVBlockReader`) falls back to for anything but plain records.
  func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws -> Table {
    var scanner = UnsafeCSVScanner(buffer, delimiter: delimiter)
    var fields = UnsafeCSVFieldBuffer(capacity: 64)
    defer { fields.deallocate() }
    var names: [String] = []
    var firstRecordIsData = false
    if let _ = try scanner.nextRecord(into: &fields) {
      if header {
        names = fields.fields.map { scanner.string($0) }
      } else {
        names = (1...fields.count).map { "column\($0)" }
        firstRecordIsData = true
      }
    }
    let width = names.count
    let kept = try keptColumns(names)
    var columns = [UnsafeCSVColumnParser](
      repeating: UnsafeCSVColumnParser(encodes: strategy.encodesDictionaries), count: kept.count)
    // Reserve for the rows the file can hold (one per line break after the header, plus an
    // unterminated last one: exact unless quoted fields span lines or lines are blank), so
    // columns never grow by doubling (time, and up to twice the memory at the peak).
    let expectedRows = UnsafeCSVScanner.lineBreaks(in: buffer, from: scanner.position) + 1
    let textBytes = buffer.count - scanner.position
    for index in columns.indices {
      columns[index].expectedRows = expectedRows
      columns[index].expectedTextBytes = textBytes
    }
    var scratch: [UInt8] = []
    var rows = 0
    var reported = 0
    var recordLine = 1
    var pending = firstRecordIsData
    let nulls = CSVNullTest(nullTokens)
    // The memory limit, before the first block of records and once per block after it.
    let memoryBlock = Swift.max(1, memoryCheckBytes)
    try checkMemory(adding: Swift.min(textBytes, memoryBlock))
    var nextCheck = scanner.position + memoryBlock
    // The first record (when there is no header) was read whole; the rest store the fields up
    // to the last one kept.
    let skipFrom = (kept.max() ?? -1) + 1
    // The column parsers through one buffer pointer for the whole scan (no per-cell
    // uniqueness check of the array); `slot < kept.count == columns.count`, `kept[slot] < width`.
    try columns.withUnsafeMutableBufferPointer { parsers in
      while true {
        if pending {
          pending = false
        } else {
          guard let line = try scanner.nextRecord(into: &fields, skipFrom: skipFrom) else { break }
          recordLine = line
        }
        guard fields.width == width else {
          throw CSVError(
            line: recordLine, "\(fields.width) field\(fields.width == 1 ? "" : "s"), expected \(width) (ragged row)")
        }
        for slot in 0..<kept.count {
          let field = fields[kept[slot]]
          if nulls.isNull(field, scanner) {
            parsers[slot].appendNull()
          } else {
            parsers[slot].append(field, scanner, scratch: &scratch)
          }
        }
        rows += 1
        if scanner.position >= nextCheck {
          try checkMemory(adding: Swift.min(buffer.count - scanner.position, memoryBlock))
          nextCheck = scanner.position + memoryBlock
        }
        if rows & 0x3FFF == 0 {
          if Task.isCancelled { throw CancellationError() }
          progress?.addRead(rows: rows - reported, bytes: 0)
          reported = rows
        }
      }
    }
    progress?.addRead(rows: rows - reported, bytes: 0)
    var built = columns.map { $0.build() }
    let rescan = built.indices.filter { built[$0] == nil }
    if !rescan.isEmpty {
      var texts = [UnsafeCSVColumnParser](repeating: .text(encodes: strategy.encodesDictionaries), count: rescan.count)
      var again = UnsafeCSVScanner(buffer, delimiter: delimiter)
      if header { _ = try again.nextRecord(into: &fields) }
      nextCheck = again.position
      while try again.nextRecord(into: &fields, skipFrom: skipFrom) != nil {
        if again.position >= nextCheck {
          try checkMemory(adding: Swift.min(buffer.count - again.position, memoryBlock))
          nextCheck = again.position + memoryBlock
        }
        for (slot, index) in rescan.enumerated() {
          let field = fields[kept[index]]
          if nulls.isNull(field, again) {
            texts[slot].appendNull()
          } else {
            texts[slot].append(field, again, scratch: &scratch)
          }
        }
      }
      for (slot, index) in rescan.enumerated() { built[index] = texts[slot].build() }
    }
    return try Table(names: kept.map { names[$0] }, columns: built.map { $0! }, rowCount: rows)
  }
}
