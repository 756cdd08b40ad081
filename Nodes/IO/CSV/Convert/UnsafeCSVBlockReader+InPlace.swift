import FlowRuntime

/// The parallel reader's in-place path (`UnsafeCSVDirectColumn`): a block's chunks count their
/// records first, so each knows its first row, then convert their numeric columns straight
/// into the table's columns.
///
/// Invariants: the record count of a chunk (its line feeds, plus one for a last record without
/// one) is at least the records it holds (a record ends at a line feed outside quotes; blank
/// lines and line feeds inside quotes only make it larger), so the chunks' row ranges
/// `firsts[k] ..< firsts[k] + counted[k]` are disjoint and inside the room `reserve` made;
/// chunk `k` writes only its range (`parseChunk`'s `limit`), and the slot addresses are used
/// only inside `withSlots`.
extension UnsafeCSVBlockReader {
  /// A column converted in place: its field in the record and its column.
  typealias InPlaceTarget = (field: Int, column: UnsafeCSVDirectColumn)

  /// The rows a chunk of `bytes` is expected to hold (a reservation, not a limit).
  static func expectedRows(_ bytes: Int, bytesPerRow: Double) -> Int {
    bytesPerRow > 0 ? Int(Double(bytes) / bytesPerRow * 1.1) + 16 : bytes / 64 + 16
  }

  /// Parses `block[starts[k]..<ends[k]]`, each chunk on one thread, the columns `inPlace`
  /// converted into their columns from their next row on (`commit` takes the chunks in), the
  /// string columns `strings` (fields) recording their cells' spans.
  func parseChunksInPlace(
    _ block: UnsafeBufferPointer<UInt8>, starts: [Int], ends: [Int], width: Int, kept: [Int], textOnly: Bool,
    bytesPerRow: Double, inPlace: [InPlaceTarget], strings: [Int] = []
  ) -> [Chunk]? {
    let shared = UnsafeTransfer(block)
    let parts = starts.count
    let counts = UnsafeSlots<Int>(parts)
    let newline = UnsafeCSVScanner.newline
    TableParallelism.forEach(parts, threads: reader.workers) { part in
      let range = starts[part]..<ends[part]
      var records = UnsafeCSVScanner.count(newline, in: shared.value, from: range.lowerBound, to: range.upperBound)
      if !range.isEmpty && shared.value[range.upperBound - 1] != newline { records += 1 }
      counts[part] = records
    }
    let counted = counts.values(default: 0)
    var starting: [Int] = []
    var running = 0
    for records in counted {
      starting.append(running)
      running += records
    }
    let firsts = starting
    for target in inPlace { target.column.reserve(running) }
    let fields = inPlace.map(\.field), numbers = inPlace.map(\.column.isNumber)
    let results = UnsafeSlots<Chunk>(parts)
    let reader = self.reader
    return UnsafeCSVDirectColumn.withSlots(inPlace.map(\.column)[...]) { addresses in
      let columns = UnsafeTransfer(addresses.map { $0! })
      TableParallelism.forEach(parts, threads: reader.workers) { part in
        let range = starts[part]..<ends[part]
        let targets = fields.indices.map {
          (field: fields[$0], slots: columns.value[$0] + firsts[part] * 8, number: numbers[$0])
        }
        guard
          let parsed = reader.parseChunk(
            UnsafeBufferPointer(rebasing: shared.value[range]), width: width, kept: kept,
            textOnly: textOnly, expectedRows: Self.expectedRows(range.count, bytesPerRow: bytesPerRow),
            direct: targets, limit: counted[part], strings: strings,
            readable: shared.value.count - range.lowerBound)
        else { return }
        results[part] = (parsed.pieces, parsed.rows, parsed.quotingBytes, parsed.direct, counted[part], parsed.spans)
      }
      return results.all()
    }
  }
}
