import Dispatch
import FlowRuntime
import Foundation

/// The parallel CSV reader: the input in blocks (a file through `pread` into one reused buffer,
/// so the whole file is never held; or bytes already in memory as one block), each block cut
/// into one run of whole records per worker and parsed on `reader.workers` threads
/// (`CSVReader.parseChunk`), the pieces merged in file order (`CSVColumnAccumulator`) —
/// except the numeric columns the first block typed, which later blocks convert straight into
/// the table's columns (`UnsafeCSVBlockReader+InPlace.swift`, `UnsafeCSVDirectColumn`).
///
/// Record boundaries: first optimistically at the first line feed after each cut (right when
/// the block holds no quote at all, which every chunk checks); if any chunk saw a quote, the
/// block is cut again knowing the quotes — a first pass counts the quotes of each cut in
/// parallel, and a line feed is a record end only after an even number of them (the quote
/// parity of the fast-CSV readers). A chunk that is not plain — a ragged row, bad quoting, a
/// quote inside an unquoted field — makes `read` return `nil`: the caller reads serially
/// (`CSVReader.parse`), which gives the exact message, or the exact table.
///
/// Invariants: every buffer pointer handed to a worker points into `block` (or the caller's
/// buffer), which outlives the parallel loop (`TableParallelism.forEach`) that uses it, and is only read there;
/// each chunk's slot of `UnsafeSlots` is written only by the one thread that claimed the chunk
/// (`forEach`), and a merging
/// thread only its column's accumulator and pieces (`UnsafeAccumulators`, `UnsafeColumnPieces`);
/// the file's bytes come through `UnsafeCSVFileBuffer` (its own invariants). Checked in debug
/// builds by `_checkInvariants` after each block.
struct UnsafeCSVBlockReader {
  let reader: CSVReader

  /// The header (names and where the data starts), or `nil` if it does not end inside `buffer`.
  func header(_ buffer: UnsafeBufferPointer<UInt8>, complete: Bool) -> (names: [String], dataStart: Int)? {
    var scanner = UnsafeCSVScanner(buffer, delimiter: reader.delimiter)
    var fields = UnsafeCSVFieldBuffer(capacity: 64)
    defer { fields.deallocate() }
    let start = scanner.position
    guard let _ = try? scanner.nextRecord(into: &fields), fields.count > 0 else { return nil }
    guard complete || scanner.position < buffer.count else { return nil }
    if reader.header { return (fields.fields.map { scanner.string($0) }, scanner.position) }
    return ((1...fields.count).map { "column\($0)" }, start)
  }

  /// The table in `buffer` (in memory), or `nil` to read it serially.
  func read(_ buffer: UnsafeBufferPointer<UInt8>) throws -> Table? {
    guard buffer.count >= reader.parallelThreshold, let (names, dataStart) = header(buffer, complete: true) else {
      return nil
    }
    let region = UnsafeBufferPointer(rebasing: buffer[dataStart...])
    return try table(names: names, total: region.count) { body in
      guard try body(region, true) == region.count else { throw Fallback() }
    }
  }

  /// The table in `file`, or `nil` to read it serially (a small or special file, or records
  /// the parallel path leaves to the serial reader).
  func read(_ file: CheckedFile) throws -> Table? {
    var info = stat()
    guard fstat(file.descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
      Int(info.st_size) >= reader.parallelThreshold
    else { return nil }
    let size = Int(info.st_size)
    // No larger than the file (plus the byte that finds its end): a small file on many cores
    // does not get a block per core.
    let blockBytes = Swift.min(reader.blockBytesPerWorker * Swift.max(1, reader.workers), size + 1)
    var input = UnsafeCSVFileBuffer(file, size: size, capacity: blockBytes)
    input.workers = reader.workers
    try input.fill()
    let found = input.withFilled { header($0, complete: input.atEnd) }
    guard let (names, dataStart) = found else { return nil }
    return try table(names: names, total: size - dataStart) { body in
      // Each pass (the typed one, and one for columns that turned out to be text) reads the
      // file from the first record.
      input.restart(at: dataStart)
      while true {
        try input.fill()
        if input.filled == 0 { return }
        let atEnd = input.atEnd
        let consumed = try input.withFilled { try body($0, atEnd) }
        if consumed == 0 {
          // One record longer than the block: a larger block.
          guard !atEnd else { throw Fallback() }
          try reader.checkMemory(adding: input.capacity * 2)
          input.grow()
          continue
        }
        input.consume(consumed)
        if atEnd && input.filled == 0 { return }
        if Task.isCancelled || reader.progress?.isStopRequested == true { throw CancellationError() }
      }
    }
  }

  /// Thrown inside a pass to give up the parallel read.
  struct Fallback: Error {}

  /// The table from the blocks `blocks` hands to its body (a block and whether it is the last;
  /// the body returns the bytes consumed, 0 if no record ends in it, or throws `Fallback`).
  private func table(
    names: [String], total: Int,
    blocks: ((UnsafeBufferPointer<UInt8>, Bool) throws -> Int) throws -> Void
  ) throws -> Table? {
    let kept = try reader.keptColumns(names)
    do {
      var accumulators = [CSVColumnAccumulator](repeating: CSVColumnAccumulator(), count: kept.count)
      var inPlace = [UnsafeCSVDirectColumn?](repeating: nil, count: kept.count)
      var strings = [UnsafeCSVStringColumn?](repeating: nil, count: kept.count)
      var rows = try pass(
        width: names.count, kept: kept, slots: Array(kept.indices), textOnly: false, total: total,
        into: &accumulators, inPlace: &inPlace, strings: &strings, blocks: blocks)
      var built = kept.indices.map { position in
        if let column = inPlace[position] { return column.build() }
        if let column = strings[position] { return column.build() }
        return accumulators[position].build()
      }
      inPlace = []
      strings = []
      let text = built.indices.filter { built[$0] == nil }
      if !text.isEmpty {
        var texts = [CSVColumnAccumulator](repeating: CSVColumnAccumulator(), count: text.count)
        var none = [UnsafeCSVDirectColumn?](repeating: nil, count: text.count)
        var noStrings = [UnsafeCSVStringColumn?](repeating: nil, count: text.count)
        let again = try pass(
          width: names.count, kept: text.map { kept[$0] }, slots: Array(text.indices), textOnly: true,
          total: total, into: &texts, inPlace: &none, strings: &noStrings, blocks: blocks)
        guard again == rows else { return nil }  // the file changed between the passes
        for (slot, index) in text.enumerated() { built[index] = texts[slot].build() }
        rows = again
      }
      return try Table(names: kept.map { names[$0] }, columns: built.map { $0! }, rowCount: rows)
    } catch is Fallback {
      return nil
    }
  }

  /// One pass over the blocks, converting columns `kept` into `accumulators[slots[i]]`, or,
  /// for a column typed integer or number by the first block (of several, outside a text
  /// pass), straight into `inPlace[i]` (`UnsafeCSVDirectColumn`), and for a column left flat
  /// text by the first block, copied straight into `strings[i]` (`UnsafeCSVStringColumn`).
  private func pass(
    width: Int, kept: [Int], slots: [Int], textOnly: Bool, total: Int, into accumulators: inout [CSVColumnAccumulator],
    inPlace: inout [UnsafeCSVDirectColumn?], strings: inout [UnsafeCSVStringColumn?],
    blocks: ((UnsafeBufferPointer<UInt8>, Bool) throws -> Int) throws -> Void
  ) throws -> Int {
    var rows = 0
    var bytesPerRow = 0.0
    // What the tries of the current block start learned (a long record: the block grows).
    var hint = CSVRecordEndHint()
    try blocks { whole, wholeIsLast in
      // The block's columns take about its bytes: checked before they are built.
      try reader.checkMemory(adding: whole.count)
      // A pass that moves columns in place types them on a short first block (the pieces and
      // their merge cost more per byte than converting in place); the rest of the buffer is the
      // next block's start.
      let first = reader.firstBlockBytesPerWorker * Swift.max(1, reader.workers)
      let shortens =
        bytesPerRow == 0 && !wholeIsLast && movesInPlace(isLast: false, textOnly: textOnly) && whole.count > 2 * first
      let pieceSlots = kept.indices.filter { inPlace[$0] == nil && strings[$0] == nil }
      let live = kept.indices.filter { inPlace[$0].map { $0.kind != .needsText } ?? false }
      let texts = kept.indices.filter { strings[$0] != nil }
      // A span holds 31-bit positions: a block past 2 GB (one huge record) reads serially.
      guard texts.isEmpty || whole.count <= UnsafeCSVStringSpans.mostChunkBytes else { throw Fallback() }
      func parseBlock(_ block: UnsafeBufferPointer<UInt8>, isLast: Bool) throws -> (chunks: [Chunk], consumed: Int) {
        guard
          let parsed = parse(
            block, isLast: isLast, width: width, kept: pieceSlots.map { kept[$0] }, textOnly: textOnly,
            bytesPerRow: bytesPerRow, inPlace: live.map { (field: kept[$0], column: inPlace[$0]!) },
            strings: texts.map { kept[$0] }, hint: &hint)
        else { throw Fallback() }
        return parsed
      }
      var isLast = shortens ? false : wholeIsLast
      var parsed = try parseBlock(shortens ? UnsafeBufferPointer(rebasing: whole[..<first]) : whole, isLast: isLast)
      if shortens && parsed.consumed == 0 {
        // No record ends in the short block: the whole one.
        isLast = wholeIsLast
        parsed = try parseBlock(whole, isLast: isLast)
      }
      var chunks = parsed.chunks
      let consumed = parsed.consumed
      if consumed == 0 { return 0 }
      hint = CSVRecordEndHint()
      let blockRows = chunks.reduce(0) { $0 + $1.rows }
      var expected = 0
      if bytesPerRow == 0 && blockRows > 0 {
        bytesPerRow = Double(consumed) / Double(blockRows)
        expected = Int(Double(total) / bytesPerRow * 1.05) + 64
        for index in accumulators.indices { accumulators[index].expectedRows = expected }
        if movesInPlace(isLast: isLast, textOnly: textOnly) {
          // The numeric columns continue in place after this block: no reservation here.
          for position in pieceSlots.prefix(UnsafeCSVDirectColumn.mostColumns) {
            accumulators[slots[position]].reservesNumbers = false
          }
        }
      }
      if !live.isEmpty {
        let counted = chunks.map(\.counted), actual = chunks.map(\.rows)
        for (index, position) in live.enumerated() {
          inPlace[position]!.commit(counted: counted, actual: actual, results: chunks.map { $0.inPlace[index] })
        }
      }
      for (index, position) in texts.enumerated() {
        strings[position]!.commit(chunks.map { $0.spans[index] }, threads: reader.workers)
      }
      // The columns merge on up to `reader.workers` threads at once (each column's pieces in
      // chunk order); a column's pieces are released once merged.
      let chunkRows = chunks.map(\.rows)
      let byColumn = UnsafeColumnPieces(pieceSlots.indices.map { position in chunks.map { $0.pieces[position] } })
      chunks = []
      let threads = Swift.min(reader.workers, pieceSlots.count)
      accumulators.withUnsafeMutableBufferPointer { buffer in
        let targets = UnsafeTransfer(buffer)
        let merge: @Sendable (Int) -> Void = { position in
          for (index, piece) in byColumn.take(position).enumerated() {
            targets.value[slots[pieceSlots[position]]].append(piece, rows: chunkRows[index])
          }
        }
        TableParallelism.forEach(pieceSlots.count, threads: threads, merge)
      }
      if expected > 0 && movesInPlace(isLast: isLast, textOnly: textOnly) {
        // Typed numeric columns continue in place from the next block on; the others reserve
        // as usual if they turn numeric later.
        for position in pieceSlots.prefix(UnsafeCSVDirectColumn.mostColumns) {
          accumulators[slots[position]].reservesNumbers = true
          guard let cells = accumulators[slots[position]].numericCells else { continue }
          inPlace[position] = UnsafeCSVDirectColumn(cells, expectedRows: expected)
          accumulators[slots[position]] = CSVColumnAccumulator()
        }
      }
      if expected > 0 && !isLast && !textOnly && reader.strategy.copiesStringsInPlace
        && whole.count <= UnsafeCSVStringSpans.mostChunkBytes
      {
        // Flat text columns continue in place from the next block on (dictionary ones merge).
        for position in pieceSlots where inPlace[position] == nil {
          guard let cells = accumulators[slots[position]].flatStrings else { continue }
          strings[position] = UnsafeCSVStringColumn(cells.strings, nullRows: cells.nullRows, expectedRows: expected)
          accumulators[slots[position]] = CSVColumnAccumulator()
        }
      }
      rows += blockRows
      guard rows <= Int(Int32.max) else { throw Fallback() }
      reader.progress?.addRead(rows: textOnly ? 0 : blockRows, bytes: textOnly ? 0 : consumed)
      return consumed
    }
    return rows
  }

  /// Whether the numeric columns typed by a first block move in place after it.
  private func movesInPlace(isLast: Bool, textOnly: Bool) -> Bool {
    !isLast && !textOnly && reader.strategy.convertsNumbersInPlace
  }
}
