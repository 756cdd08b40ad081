import Dispatch
import FlowRuntime
import Foundation
import Synchronization

/// The parallel CSV reader: the input in blocks (a file through `pread` into one reused buffer,
/// so the whole file is never held; or bytes already in memory as one block), each block cut
/// into one run of whole records per worker and parsed on `reader.workers` threads
/// (`CSVReader.parseChunk`), the pieces merged in file order (`CSVColumnAccumulator`).
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
/// buffer), which outlives the `concurrentPerform` call that uses it, and is only read there;
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
    guard buffer.count >= reader.parallelThreshold, let (names, dataStart) = header(buffer, complete: true) else { return nil }
    let region = UnsafeBufferPointer(rebasing: buffer[dataStart...])
    return try table(names: names, total: region.count) { body in
      guard try body(region, true) == region.count else { throw Fallback() }
    }
  }

  /// The table in `file`, or `nil` to read it serially (a small or special file, or records
  /// the parallel path leaves to the serial reader).
  func read(_ file: CheckedFile) throws -> Table? {
    var info = stat()
    guard fstat(file.descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) >= reader.parallelThreshold
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
  private func table(names: [String], total: Int,
                     blocks: ((UnsafeBufferPointer<UInt8>, Bool) throws -> Int) throws -> Void) throws -> Table? {
    let kept = reader.keptColumns(names)
    do {
      var accumulators = [CSVColumnAccumulator](repeating: CSVColumnAccumulator(), count: kept.count)
      var rows = try pass(width: names.count, kept: kept, slots: Array(kept.indices), textOnly: false, total: total,
                          into: &accumulators, blocks: blocks)
      var built = accumulators.map { $0.build() }
      let text = built.indices.filter { built[$0] == nil }
      if !text.isEmpty {
        var texts = [CSVColumnAccumulator](repeating: CSVColumnAccumulator(), count: text.count)
        let again = try pass(width: names.count, kept: text.map { kept[$0] }, slots: Array(text.indices), textOnly: true,
                             total: total, into: &texts, blocks: blocks)
        guard again == rows else { return nil }  // the file changed between the passes
        for (slot, index) in text.enumerated() { built[index] = texts[slot].build() }
        rows = again
      }
      return try Table(names: kept.map { names[$0] }, columns: built.map { $0! }, rowCount: rows)
    } catch is Fallback {
      return nil
    }
  }

  /// One pass over the blocks, converting columns `kept` into `accumulators[slots[i]]`.
  private func pass(width: Int, kept: [Int], slots: [Int], textOnly: Bool, total: Int, into accumulators: inout [CSVColumnAccumulator],
                    blocks: ((UnsafeBufferPointer<UInt8>, Bool) throws -> Int) throws -> Void) throws -> Int {
    var rows = 0
    var bytesPerRow = 0.0
    try blocks { block, isLast in
      guard let parsed = parse(block, isLast: isLast, width: width, kept: kept, textOnly: textOnly, bytesPerRow: bytesPerRow)
      else { throw Fallback() }
      var chunks = parsed.chunks
      let consumed = parsed.consumed
      if consumed == 0 { return 0 }
      let blockRows = chunks.reduce(0) { $0 + $1.rows }
      if bytesPerRow == 0 && blockRows > 0 {
        bytesPerRow = Double(consumed) / Double(blockRows)
        let expected = Int(Double(total) / bytesPerRow * 1.05) + 64
        for index in accumulators.indices { accumulators[index].expectedRows = expected }
      }
      // The columns merge on up to `reader.workers` threads at once (each column's pieces in
      // chunk order); a column's pieces are released once merged.
      let chunkRows = chunks.map(\.rows)
      let byColumn = UnsafeColumnPieces((0..<slots.count).map { position in chunks.map { $0.pieces[position] } })
      chunks = []
      let threads = Swift.min(reader.workers, slots.count)
      accumulators.withUnsafeMutableBufferPointer { buffer in
        let targets = UnsafeAccumulators(buffer)
        let merge: @Sendable (Int) -> Void = { position in
          for (index, piece) in byColumn.take(position).enumerated() {
            targets.buffer[slots[position]].append(piece, rows: chunkRows[index])
          }
        }
        if threads > 1 {
          DispatchQueue.concurrentPerform(iterations: slots.count, execute: merge)
        } else {
          for position in 0..<slots.count { merge(position) }
        }
      }
      rows += blockRows
      guard rows <= Int(Int32.max) else { throw Fallback() }
      reader.progress?.addRead(rows: textOnly ? 0 : blockRows, bytes: textOnly ? 0 : consumed)
      return consumed
    }
    return rows
  }

  typealias Chunk = (pieces: [CSVPiece], rows: Int, quotingBytes: Int)

  /// The chunks of one block and the bytes they cover (the whole block if it is the last, else
  /// up to its last record end); `consumed` 0 if no record ends in it; `nil` to fall back.
  func parse(_ block: UnsafeBufferPointer<UInt8>, isLast: Bool, width: Int, kept: [Int], textOnly: Bool,
                     bytesPerRow: Double) -> (chunks: [Chunk], consumed: Int)? {
    let count = block.count
    let newline = UnsafeCSVScanner.newline, quote = UnsafeCSVScanner.quote
    // Several chunks per worker, claimed one at a time: a worker that is held up (another
    // process on its core) leaves its chunks to the others instead of stalling the block.
    let parts = Swift.max(1, Swift.min(reader.workers > 1 ? reader.workers * 4 : 1, count / Swift.max(1, reader.minimumChunkBytes)))
    let cuts = (0...parts).map { $0 * count / parts }
    // Optimistic: no quotes in the block.
    var end = count
    if !isLast {
      while end > 0 && block[end - 1] != newline { end -= 1 }
      if end == 0 { return ([], 0) }
    }
    var starts = [0]
    for part in 1..<parts {
      var i = Swift.max(cuts[part], starts[starts.count - 1])
      while i < end && block[i] != newline { i += 1 }
      if i + 1 < end && i + 1 > starts[starts.count - 1] { starts.append(i + 1) }
    }
    if let chunks = parseChunks(block, starts: starts, end: end, width: width, kept: kept, textOnly: textOnly,
                                bytesPerRow: bytesPerRow, quotes: false) {
      return (chunks, end)
    }
    // Knowing the quotes: count each cut's quotes in parallel, then cut where the parity is even.
    let counts = UnsafeSlots<Int>(parts)
    let shared = UnsafeSendableBuffer(block)
    Self.forEach(parts, threads: reader.workers) { part in
      counts[part] = UnsafeCSVScanner.count(quote, in: shared.buffer, from: cuts[part], to: cuts[part + 1])
    }
    let quoteCounts = counts.values(default: 0)
    let totalQuotes = quoteCounts.reduce(0, +)
    end = count
    if !isLast {
      // Back from the end: a line feed with an even number of quotes before it.
      var after = 0
      end = 0
      var i = count - 1
      while i >= 0 {
        let byte = block[i]
        if byte == newline && (totalQuotes - after) % 2 == 0 { end = i + 1; break }
        if byte == quote { after += 1 }
        i -= 1
      }
      if end == 0 { return ([], 0) }
    }
    starts = [0]
    var before = 0
    for part in 1..<parts {
      before += quoteCounts[part - 1]
      var parity = before
      var i = cuts[part]
      while i < end {
        let byte = block[i]
        if byte == newline && parity % 2 == 0 { break }
        if byte == quote { parity += 1 }
        i += 1
      }
      if i + 1 < end && i + 1 > starts[starts.count - 1] { starts.append(i + 1) }
    }
    guard let chunks = parseChunks(block, starts: starts, end: end, width: width, kept: kept, textOnly: textOnly,
                                   bytesPerRow: bytesPerRow, quotes: true) else { return nil }
    return (chunks, end)
  }

  /// `body(k)` for each `k` in `0..<count`, on up to `threads` threads that claim the next `k`
  /// in turn (each `k` runs once, on one thread).
  static func forEach(_ count: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
    let threads = Swift.max(1, Swift.min(threads, count))
    if threads == 1 {
      for index in 0..<count { body(index) }
      return
    }
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        if index >= count { return }
        body(index)
      }
    }
  }

  /// Parses `block[starts[k]..<starts[k + 1] or end]`, each chunk on one thread.
  private func parseChunks(_ block: UnsafeBufferPointer<UInt8>, starts: [Int], end: Int, width: Int, kept: [Int], textOnly: Bool,
                           bytesPerRow: Double, quotes: Bool) -> [Chunk]? {
    let ends = Array(starts.dropFirst()) + [end]
    let results = UnsafeSlots<Chunk>(starts.count)
    let shared = UnsafeSendableBuffer(block)
    let reader = self.reader
    Self.forEach(starts.count, threads: reader.workers) { part in
      let range = starts[part]..<ends[part]
      let expected = bytesPerRow > 0 ? Int(Double(range.count) / bytesPerRow * 1.1) + 16 : range.count / 64 + 16
      results[part] = reader.parseChunk(UnsafeBufferPointer(rebasing: shared.buffer[range]), width: width, kept: kept,
                                        textOnly: textOnly, expectedRows: expected, quotes: quotes)
    }
    let chunks = results.all()
    #if DEBUG
    _checkInvariants(starts: starts, end: end, count: block.count)
    #endif
    return chunks
  }

  func _checkInvariants(starts: [Int], end: Int, count: Int) {
    assert(starts.first == 0 && end <= count && zip(starts, starts.dropFirst()).allSatisfy { $0 < $1 } && (starts.last ?? 0) <= end,
           "chunks \(starts) end \(end) of \(count)")
  }
}

/// The column accumulators of a pass, merged on several threads: the thread merging column
/// position `p` writes only `buffer[slots[p]]` (the slots are distinct), and the owner reads
/// them after `concurrentPerform` returned.
struct UnsafeAccumulators: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<CSVColumnAccumulator>
  init(_ buffer: UnsafeMutableBufferPointer<CSVColumnAccumulator>) { self.buffer = buffer }
}

/// The chunks' pieces of each column: the thread merging column `p` takes (and so releases)
/// slot `p` only.
final class UnsafeColumnPieces: @unchecked Sendable {
  private let storage: UnsafeMutableBufferPointer<[CSVPiece]>

  init(_ pieces: [[CSVPiece]]) {
    storage = .allocate(capacity: pieces.count)
    _ = storage.initialize(from: pieces)
  }

  deinit {
    storage.deinitialize()
    storage.deallocate()
  }

  /// Column `position`'s pieces, leaving its slot empty.
  func take(_ position: Int) -> [CSVPiece] {
    precondition(position >= 0 && position < storage.count, "column \(position) of \(storage.count)")
    var taken: [CSVPiece] = []
    swap(&taken, &storage[position])
    return taken
  }
}

/// A buffer read by several workers at once (each reads; none writes).
struct UnsafeSendableBuffer: @unchecked Sendable {
  let buffer: UnsafeBufferPointer<UInt8>
  init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }
}

/// One result slot per chunk: only the thread that claimed chunk `i` writes slot `i`, and the owner reads them after
/// `concurrentPerform` returned (which orders the writes before the reads).
final class UnsafeSlots<Value>: @unchecked Sendable {
  private let storage: UnsafeMutablePointer<Value?>
  let count: Int

  init(_ count: Int) {
    self.count = count
    storage = .allocate(capacity: count)
    storage.initialize(repeating: nil, count: count)
  }

  deinit {
    storage.deinitialize(count: count)
    storage.deallocate()
  }

  subscript(index: Int) -> Value? {
    get { storage[index] }
    set {
      precondition(index >= 0 && index < count, "slot \(index) of \(count)")
      storage[index] = newValue
    }
  }

  /// Every slot, or `nil` if one is empty.
  func all() -> [Value]? {
    var values: [Value] = []
    values.reserveCapacity(count)
    for index in 0..<count {
      guard let value = storage[index] else { return nil }
      values.append(value)
    }
    return values
  }

  func values(default value: Value) -> [Value] { (0..<count).map { storage[$0] ?? value } }
}
