import FlowRuntime

/// A flat string column of a parallel CSV read written in place: once the first block left a
/// column flat text (not dictionary-encoded), every later chunk records where its cells lie
/// (`UnsafeCSVStringSpans`) instead of copying them into a piece, and once the block is parsed
/// — every chunk's rows and bytes known, so each chunk's first row and first byte in the column
/// are prefix sums — each chunk's cells are copied from the block straight to their place, the
/// chunks in parallel (`commit`). A string column stays text whatever comes (a null is the
/// empty string and a null row), so nothing here can change the column's type.
/// `CSVReadStrategy.copiesStringsInPlace` off turns the path off (the table is the same).
///
/// Invariants: `bytes` and `offsets` have `count == capacity` (trivial types; the cells past
/// `byteCount` and `rows + 1` are storage not yet written, never read, cut off by `build()`);
/// `offsets[0...rows]` are the flat layout's offsets of the rows so far, ending at
/// `byteCount`. `commit` makes room for the block first, then hands each chunk a disjoint
/// byte range and row range of that room (the prefix sums of the chunks' bytes and rows), used
/// only inside the call. `nullRows` is increasing, below `rows`.
final class UnsafeCSVStringColumn {
  private var bytes: [UInt8]
  private var offsets: [Int]
  private var nullRows: [Int32]
  private(set) var rows: Int
  private var byteCount: Int

  /// A column continuing `strings` (flat) and their `nullRows`, with room for about
  /// `expectedRows` rows of the same length.
  init(_ strings: StringColumn, nullRows: [Int32], expectedRows: Int) {
    let flat = strings.bytes, ends = strings.offsets
    rows = strings.count
    byteCount = flat.count
    self.nullRows = nullRows
    let rowCapacity = Swift.max(expectedRows, rows + 1024)
    let perRow = Double(flat.count) / Double(Swift.max(1, rows))
    let byteCapacity = Swift.max(flat.count + 4096, Int(perRow * Double(rowCapacity) * 1.1) + 4096)
    bytes = Self.storage(byteCapacity, from: flat)
    offsets = Self.storage(rowCapacity + 1, from: ends)
  }

  /// An array of `capacity` cells, the first ones `values` (the rest not yet written).
  private static func storage<Value: BitwiseCopyable>(_ capacity: Int, from values: [Value]) -> [Value] {
    var array = [Value](unsafeUninitializedCapacity: capacity) { buffer, initialized in
      values.withUnsafeBufferPointer { buffer.baseAddress!.initialize(from: $0.baseAddress!, count: values.count) }
      initialized = capacity
    }
    UnsafeHugePages.advise(&array)
    return array
  }

  /// Makes room for `moreRows` rows of `moreBytes` bytes (a copy only if the estimate was short).
  private func reserve(rows moreRows: Int, bytes moreBytes: Int) {
    if byteCount + moreBytes > bytes.count {
      let kept = Array(bytes[0..<byteCount])
      bytes = Self.storage(Swift.max(byteCount + moreBytes, bytes.count * 2), from: kept)
    }
    if rows + moreRows + 1 > offsets.count {
      let kept = Array(offsets[0...rows])
      offsets = Self.storage(Swift.max(rows + moreRows + 1, offsets.count * 2), from: kept)
    }
  }

  /// Takes in one block's chunks (`spans[k]`: chunk `k`'s cells, in order): each chunk's
  /// cells are copied into the column on up to `threads` threads.
  func commit(_ spans: [UnsafeCSVStringSpans], threads: Int) {
    reserve(rows: spans.reduce(0) { $0 + $1.count }, bytes: spans.reduce(0) { $0 + $1.bytes })
    var firstBytes: [Int] = [], firstRows: [Int] = []
    var byte = byteCount, row = rows
    for chunk in spans {
      firstBytes.append(byte)
      firstRows.append(row)
      let offset = Int32(truncatingIfNeeded: row)
      nullRows.append(contentsOf: chunk.nullRows.lazy.map { $0 &+ offset })
      byte += chunk.bytes
      row += chunk.count
    }
    let byteStarts = firstBytes, rowStarts = firstRows
    bytes.withUnsafeMutableBufferPointer { target in
      offsets.withUnsafeMutableBufferPointer { ends in
        let storage = Storage(target: target.baseAddress!, ends: ends.baseAddress!)
        TableParallelism.forEach(spans.count, threads: threads) { k in
          spans[k].write(
            to: storage.target + byteStarts[k], ends: storage.ends + rowStarts[k] + 1, first: byteStarts[k])
        }
      }
    }
    byteCount = byte
    rows = row
  }

  /// The column's storage, shared by the threads of one `commit` (each writes its chunk's
  /// disjoint ranges), used only inside the `withUnsafeMutableBufferPointer` calls that made it.
  private struct Storage: @unchecked Sendable {
    let target: UnsafeMutablePointer<UInt8>
    let ends: UnsafeMutablePointer<Int>
  }

  /// The column (its storage cut to its rows and bytes).
  func build() -> Column {
    bytes.removeLast(bytes.count - byteCount)
    offsets.removeLast(offsets.count - rows - 1)
    return Column(
      .string(StringColumn(validUTF8: bytes, offsets: offsets)), validity: Validity(count: rows, nullRows: nullRows))
  }
}
