// Invariants: a block is cut into chunks at record ends (`starts` increasing from 0, the last
// at most `end <= block.count`, checked by `_checkInvariants` in debug builds); the byte
// scans read the block only below `count`; every buffer handed to a worker is a slice of
// `block`, which outlives the `forEach` call that uses it and is only read there; each
// chunk's result slot is written only by the thread that claimed the chunk.

import FlowRuntime

/// How the parallel reader cuts a block into chunks of whole records (optimistically at line
/// feeds, then knowing the quotes) and parses them, each on one worker.
extension UnsafeCSVBlockReader {
  /// One chunk's pieces (of the columns not converted in place), records, quoting bytes, the
  /// parsers of its in-place columns, and the records counted for it beforehand.
  typealias Chunk = (
    pieces: [CSVPiece], rows: Int, quotingBytes: Int, inPlace: [UnsafeCSVDirectParser], counted: Int,
    spans: [UnsafeCSVStringSpans]
  )

  /// `parse(_:isLast:width:kept:textOnly:bytesPerRow:inPlace:strings:hint:)` of a block tried
  /// for the first time.
  func parse(
    _ block: UnsafeBufferPointer<UInt8>, isLast: Bool, width: Int, kept: [Int], textOnly: Bool,
    bytesPerRow: Double, inPlace: [InPlaceTarget] = [], strings: [Int] = []
  ) -> (chunks: [Chunk], consumed: Int)? {
    var hint = CSVRecordEndHint()
    return parse(
      block, isLast: isLast, width: width, kept: kept, textOnly: textOnly, bytesPerRow: bytesPerRow,
      inPlace: inPlace, strings: strings, hint: &hint)
  }

  /// The chunks of one block and the bytes they cover (the whole block if it is the last, else
  /// up to its last record end); `consumed` 0 if no record ends in it; `nil` to fall back.
  /// The columns `inPlace` are converted straight into their columns; the string columns
  /// `strings` (fields) give their cells' spans.
  ///
  /// `hint` carries what earlier tries of the same block start learned (`CSVRecordEndHint`):
  /// the searches skip the bytes it covers, and a try that finds no record end extends it to the
  /// whole block, so a record longer than many doublings of the block is searched once.
  func parse(
    _ block: UnsafeBufferPointer<UInt8>, isLast: Bool, width: Int, kept: [Int], textOnly: Bool,
    bytesPerRow: Double, inPlace: [InPlaceTarget] = [], strings: [Int] = [],
    hint: inout CSVRecordEndHint
  ) -> (chunks: [Chunk], consumed: Int)? {
    let count = block.count
    let newline = UnsafeCSVScanner.newline, quote = UnsafeCSVScanner.quote
    let statistics = reader.statistics
    if hint.bytes >= count && !isLast {
      // A view of the block no longer than what an earlier try searched (the short first block
      // of a pass): no record end in it.
      return ([], 0)
    }
    if hint.bytes > count { hint = CSVRecordEndHint() }
    // The bytes an earlier try searched hold no record end (a block only grows between tries).
    let known = hint.bytes
    // Several chunks per worker, claimed one at a time: a worker that is held up (another
    // process on its core) leaves its chunks to the others instead of stalling the block.
    let parts = Swift.max(
      1, Swift.min(reader.workers > 1 ? reader.workers * 4 : 1, count / Swift.max(1, reader.minimumChunkBytes)))
    let cuts = (0...parts).map { $0 * count / parts }
    // Optimistic: no line feed inside quotes (the chunks parse only if so; see `parseChunk`).
    // Skipped when an earlier try counted the quotes: the block starts inside a long record
    // whose line feeds are inside quotes.
    var end = count
    if hint.quotes == nil || known == 0 {
      if !isLast {
        while end > known && block[end - 1] != newline { end -= 1 }
        statistics?.searched(count - Swift.max(end, known))
        if end <= known {
          // No line feed at all: no record end. The next try (a larger block) starts after it.
          hint = CSVRecordEndHint(bytes: count, quotes: nil)
          statistics?.triedWithoutRecordEnd()
          return ([], 0)
        }
      }
      // Each cut's search starts where the previous one stopped if that is past the cut (the
      // bytes between hold no line feed), so the searches read the block once in all: a record
      // longer than the chunks (one huge field) costs O(block), not O(parts × block).
      var starts = [0]
      var reached = known
      for part in 1..<parts {
        var i = Swift.max(cuts[part], starts[starts.count - 1], reached)
        let from = i
        while i < end && block[i] != newline { i += 1 }
        statistics?.searched(i - from)
        reached = i
        if i + 1 < end && i + 1 > starts[starts.count - 1] { starts.append(i + 1) }
      }
      if let chunks = parseChunks(
        block, starts: starts, end: end, width: width, kept: kept, textOnly: textOnly,
        bytesPerRow: bytesPerRow, inPlace: inPlace, strings: strings)
      {
        return (chunks, end)
      }
    }
    // The quotes of a prefix with no line feed were not counted: counted now, from the start.
    let counted = hint.quotes == nil ? 0 : known
    let quotesBefore = hint.quotes ?? 0
    // Knowing the quotes: count the quotes of each cut (from `known` on) in parallel, then cut
    // where the parity is even. `bounds[part]` is where part `part`'s search starts.
    let bounds = cuts.map { Swift.max($0, counted) }
    let counts = UnsafeSlots<Int>(parts)
    let shared = UnsafeTransfer(block)
    TableParallelism.forEach(parts, threads: reader.workers) { part in
      counts[part] = UnsafeCSVScanner.count(quote, in: shared.value, from: bounds[part], to: bounds[part + 1])
    }
    statistics?.searched(count - counted)
    let quoteCounts = counts.values(default: 0)
    let totalQuotes = quotesBefore + quoteCounts.reduce(0, +)
    end = count
    if !isLast {
      // Back from the end to `known`: a line feed with an even number of quotes before it.
      var after = 0
      end = 0
      var i = count - 1
      while i >= known {
        let byte = block[i]
        if byte == newline && (totalQuotes - after) % 2 == 0 { end = i + 1; break }
        if byte == quote { after += 1 }
        i -= 1
      }
      statistics?.searched(count - Swift.max(i, known))
      if end == 0 {
        hint = CSVRecordEndHint(bytes: count, quotes: totalQuotes)
        statistics?.triedWithoutRecordEnd()
        return ([], 0)
      }
    }
    var starts = [0]
    var before = quotesBefore
    var reached = counted
    for part in 1..<parts {
      before += quoteCounts[part - 1]
      // The previous search passed this cut: the first record end after the cut is the one it
      // found (or none), already a start; searching again would read the same bytes.
      if reached >= bounds[part] { continue }
      var parity = before
      var i = bounds[part]
      while i < end {
        let byte = block[i]
        if byte == newline && parity % 2 == 0 { break }
        if byte == quote { parity += 1 }
        i += 1
      }
      statistics?.searched(i - bounds[part])
      reached = i
      if i + 1 < end && i + 1 > starts[starts.count - 1] { starts.append(i + 1) }
    }
    guard
      let chunks = parseChunks(
        block, starts: starts, end: end, width: width, kept: kept, textOnly: textOnly,
        bytesPerRow: bytesPerRow, inPlace: inPlace, strings: strings)
    else { return nil }
    return (chunks, end)
  }

  /// Parses `block[starts[k]..<starts[k + 1] or end]`, each chunk on one thread.
  private func parseChunks(
    _ block: UnsafeBufferPointer<UInt8>, starts: [Int], end: Int, width: Int, kept: [Int], textOnly: Bool,
    bytesPerRow: Double, inPlace: [InPlaceTarget], strings: [Int]
  ) -> [Chunk]? {
    let ends = Array(starts.dropFirst()) + [end]
    reader.statistics?.parsed(end)
    if !inPlace.isEmpty || !strings.isEmpty {
      let chunks = parseChunksInPlace(
        block, starts: starts, ends: ends, width: width, kept: kept, textOnly: textOnly,
        bytesPerRow: bytesPerRow, inPlace: inPlace, strings: strings)
      #if DEBUG
      _checkInvariants(starts: starts, end: end, count: block.count)
      #endif
      return chunks
    }
    let results = UnsafeSlots<Chunk>(starts.count)
    let shared = UnsafeTransfer(block)
    let reader = self.reader
    TableParallelism.forEach(starts.count, threads: reader.workers) { part in
      let range = starts[part]..<ends[part]
      let expected = Self.expectedRows(range.count, bytesPerRow: bytesPerRow)
      guard
        let parsed = reader.parseChunk(
          UnsafeBufferPointer(rebasing: shared.value[range]), width: width, kept: kept,
          textOnly: textOnly, expectedRows: expected)
      else { return }
      results[part] = (parsed.pieces, parsed.rows, parsed.quotingBytes, [], parsed.rows, [])
    }
    let chunks = results.all()
    #if DEBUG
    _checkInvariants(starts: starts, end: end, count: block.count)
    #endif
    return chunks
  }

  func _checkInvariants(starts: [Int], end: Int, count: Int) {
    assert(
      starts.first == 0 && end <= count && zip(starts, starts.dropFirst()).allSatisfy { $0 < $1 }
        && (starts.last ?? 0) <= end,
      "chunks \(starts) end \(end) of \(count)")
  }
}
