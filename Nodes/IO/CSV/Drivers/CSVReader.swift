import FlowRuntime
import Foundation

/// Reads CSV text into a `Table` (Reference.md, "Table semantics"): RFC 4180 quoting, CRLF or LF, a byte
/// order mark ignored, blank lines skipped; nulls are the unquoted cells equal to a null token;
/// each column's type is inferred (integer, else number, else bool, else string; a cell counts
/// as a number if its text, trimmed of spaces, is one). Numbers are parsed from the bytes.
///
/// Large inputs are read in blocks and parsed on `workers` threads at record boundaries found
/// from the quotes (`UnsafeCSVBlockReader`); the table is the same whatever the worker count.
/// Only the columns in `columns` are converted (the others are scanned past).
///
/// - Complexity: one scan of the bytes (two for a column that turns out to be text after
///   numeric cells); memory: one block per worker plus the columns (a file), or the bytes
///   plus the columns (bytes given).
package struct CSVReader {
  package init() {}

  package var delimiter: UInt8 = UInt8(ascii: ",")
  package var header = true
  package var nullTokens: [[UInt8]] = CSVReader.defaultNullValues.map { Array($0.utf8) }
  var progress: PassProgress?
  /// The run's limits: the memory limit is checked while the columns are built
  /// (`CSVReader+Limits.swift`); `nil` checks nothing.
  var limits: RunLimits?
  /// Bytes of records the serial reader converts between two checks of the memory limit.
  var memoryCheckBytes = RunLimits.memoryBlockBytes
  /// Counters of the block reader's work (tests); `nil` counts nothing.
  var statistics: CSVReadStatistics?
  /// The columns to convert, or `nil` for all. The table keeps the file's order; names the
  /// header lacks are ignored (`ColumnDemand` asks both sides of a join for the names either
  /// may hold); a header that repeats a name is read whole (and fails as it would).
  package var columns: Set<String>?
  /// Threads parsing at once (1: this thread only); `readCSV` takes its environment's
  /// (`EvaluationEnvironment.workers`).
  package var workers = TableParallelism.defaultWorkers
  /// Bytes read per block and per worker. Small enough that a block's column pieces come from
  /// (and go back to) the allocator's heap instead of fresh pages (2 MB per worker read 31 MB of
  /// flights about twice as fast as 16 MB did, when every column went through pieces), large
  /// enough that the per-block steps (the cut, the record count, the commit of the in-place
  /// columns, the dictionary merges, each a round of the workers) stay rare: with the numeric
  /// and flat text columns converted in place, 4 MB read flights ~10 % faster than 2 MB.
  package var blockBytesPerWorker = 4 << 20
  /// Bytes per worker of a pass's first block where later blocks convert in place: the first
  /// block types the columns through pieces, which cost more per byte than the in-place
  /// conversion, so it is short (the following blocks are `blockBytesPerWorker`).
  package var firstBlockBytesPerWorker = 256 << 10
  /// Which faster paths the reader takes (`CSVReadStrategy`: numbers and flat strings
  /// converted in place from the second block on, `UnsafeCSVDirectColumn` and
  /// `UnsafeCSVStringColumn`; plain records from a structural index, `UnsafeCSVPlainIndex`;
  /// text columns dictionary-encoded, `CSVDictionaryEncoding`). The table is the same whichever
  /// are on; `readCSV` takes it from its environment (`EvaluationEnvironment.csvRead`).
  package var strategy = CSVReadStrategy()
  /// Inputs smaller than this are parsed serially (no threads, no blocks).
  package var parallelThreshold = 1 << 20
  /// The least bytes a worker's chunk of a block holds (smaller blocks use fewer workers).
  package var minimumChunkBytes = 64 << 10

  static let defaultNullValues = ["", "NA", "N/A", "NaN", "null"]

  var longestNullToken: Int { nullTokens.map(\.count).max() ?? -1 }

  /// The positions of the columns to convert, in header order. Throws the table's error for a
  /// header that repeats a name (`Table`'s own message) before any record is read, so a bad
  /// header on a large file fails at once, and the serial, parallel and morsel reads give the
  /// same error whatever follows.
  func keptColumns(_ names: [String]) throws(TableError) -> [Int] {
    var seen = Set<String>(minimumCapacity: names.count)
    for name in names where !seen.insert(name).inserted { throw TableError("duplicate column '\(name)'") }
    guard let columns else { return Array(names.indices) }
    return names.indices.filter { columns.contains(names[$0]) }
  }

  // `read(_:)` (the table in some bytes) is in `UnsafeCSVSerialParser.swift`;
  // `read(_ file:)` in `UnsafeCSVBlockReader.swift`.
}
