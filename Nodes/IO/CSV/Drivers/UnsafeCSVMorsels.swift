import FlowRuntime
import Foundation

/// The parallel reader's blocks handed on one at a time as tables (morsels) instead of merged
/// into one table: `flow run`'s streamed chains (`StreamedChain`) read a file this way, so the
/// file's table is never held whole.
///
/// A morsel is exactly the rows of one block, typed as the whole file would type them, or the
/// read gives up (`CSVMorsels.Fallback`; the caller reads the file whole, as today): the same
/// cases as the parallel read (a small or special file, a ragged row, bad quoting, a record
/// longer than memory allows), plus a column whose type changes along the file (integer then
/// number, all nulls then text, a number then a word): each morsel's column must have the type
/// of the first morsel's (an all-null column takes it; the first morsel's all-null column is an
/// integer one, as `CSVColumnAccumulator` makes it). When every morsel agrees, that type is
/// the one the whole read gives, so each morsel equals the same rows of the whole table.
///
/// The file is read and parsed on a thread of its own, one morsel ahead of `body`
/// (`CSVMorselHandoff`): parsing morsel k + 1 overlaps the chain's nodes on morsel k. `body`
/// still sees every morsel in file order, on the caller's thread.
///
/// Invariants: the file's bytes come through `UnsafeCSVFileBuffer` (its own invariants); the
/// buffer handed to `parse` lies inside it and is not used after the call (the morsel's
/// columns are copies).
package enum CSVMorsels {
  /// The read cannot go on morsel by morsel; the caller reads the file whole.
  package struct Fallback: Error {}

  /// Parsed morsels that may wait for `body` (besides the one it works on).
  static let readAhead = 1

  /// Reads `file` with `reader` in blocks of about `morselBytes` bytes (at least one record)
  /// and hands each block's rows to `body` as a table, in file order. Returns the morsels'
  /// row count.
  ///
  /// - Throws: `TableError` for a header that repeats a name (before any morsel), `Fallback`
  ///   (see the type), a read error, `CancellationError`, or what `body` throws.
  package static func read(_ file: CheckedFile, reader: CSVReader, morselBytes: Int, _ body: (Table) throws -> Void)
    throws
    -> Int
  {
    var info = stat()
    guard fstat(file.descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else {
      throw Fallback()
    }
    let size = Int(info.st_size)
    let handoff = CSVMorselHandoff(capacity: readAhead)
    let thread = Thread {
      do {
        let rows = try produce(file, size: size, reader: reader, morselBytes: morselBytes) { handoff.put($0) }
        handoff.finish(.end(rows))
      } catch {
        handoff.finish(.failure(error))
      }
    }
    thread.start()
    defer { handoff.stopAndWait() }
    var rows = 0
    while let morsel = try handoff.take(rows: &rows) {
      try body(morsel)
      if Task.isCancelled || reader.progress?.isStopRequested == true { throw CancellationError() }
    }
    return rows
  }

  /// The producer: reads and parses the file, handing each morsel to `put` (which returns
  /// `false` when the consumer stopped: the read ends with `CancellationError`).
  private static func produce(
    _ file: CheckedFile, size: Int, reader: CSVReader, morselBytes: Int,
    put: (Table) -> Bool
  ) throws -> Int {
    let blockReader = UnsafeCSVBlockReader(reader: reader)
    // Never larger than the file (a small file under a large morsel size).
    var input = UnsafeCSVFileBuffer(file, size: size, capacity: Swift.min(morselBytes, size + 1))
    input.workers = reader.workers
    try input.fill()
    let found = input.withFilled { blockReader.header($0, complete: input.atEnd) }
    guard let (names, dataStart) = found else { throw Fallback() }
    let kept = try reader.keptColumns(names)
    let keptNames = kept.map { names[$0] }
    var types: [ColumnType]?
    var rows = 0
    var bytesPerRow = 0.0
    input.consume(dataStart)
    // What the tries of the current block start learned (a long record: the block grows, and
    // each try searches only the bytes the last one did not).
    var hint = CSVRecordEndHint()
    while input.filled > 0 {
      let atEnd = input.atEnd
      try reader.checkMemory(adding: input.filled)
      let parsed = input.withFilled { buffer in
        blockReader.parse(
          buffer, isLast: atEnd, width: names.count, kept: kept, textOnly: false, bytesPerRow: bytesPerRow,
          hint: &hint)
      }
      guard let (chunks, consumed) = parsed else { throw Fallback() }
      if consumed == 0 {
        // One record longer than the block: a larger block.
        guard !atEnd else { throw Fallback() }
        try reader.checkMemory(adding: input.capacity * 2)
        input.grow()
        try input.fill()
        continue
      }
      hint = CSVRecordEndHint()
      let morselRows = chunks.reduce(0) { $0 + $1.rows }
      if bytesPerRow == 0 && morselRows > 0 { bytesPerRow = Double(consumed) / Double(morselRows) }
      rows += morselRows
      guard rows <= Int(Int32.max) else { throw Fallback() }
      let morsel = try table(chunks, rows: morselRows, names: keptNames, types: &types)
      reader.progress?.addRead(rows: morselRows, bytes: consumed)
      input.consume(consumed)
      guard put(morsel) else { throw CancellationError() }
      if reader.progress?.isStopRequested == true { throw CancellationError() }
      try input.fill()
    }
    guard rows > 0 else { throw Fallback() }  // no records: the whole read types the empty columns
    return rows
  }

  /// One block's chunks as a table whose column types agree with `types` (set by the first).
  private static func table(
    _ chunks: [UnsafeCSVBlockReader.Chunk], rows: Int, names: [String],
    types: inout [ColumnType]?
  ) throws -> Table {
    var accumulators = [CSVColumnAccumulator](repeating: CSVColumnAccumulator(), count: names.count)
    for index in accumulators.indices { accumulators[index].expectedRows = rows }
    for chunk in chunks {
      for (position, piece) in chunk.pieces.enumerated() { accumulators[position].append(piece, rows: chunk.rows) }
    }
    var columns: [Column] = []
    columns.reserveCapacity(names.count)
    for (position, accumulator) in accumulators.enumerated() {
      if accumulator.state == .untyped {
        columns.append(Column.nulls(types?[position] ?? .integer, count: rows))
      } else {
        guard let column = accumulator.build() else { throw Fallback() }
        if let types, types[position] != column.type { throw Fallback() }
        columns.append(column)
      }
    }
    if types == nil { types = columns.map(\.type) }
    return try Table(names: names, columns: columns, rowCount: rows)
  }
}
