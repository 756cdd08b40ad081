import Synchronization

/// Counters of one CSV reader's work, for tests: a test gives a reader a `CSVReadStatistics`
/// (`CSVReader.statistics`) and checks the work grows linearly with the input (a huge field
/// is searched and parsed once, however often the block grows), without timing anything.
package final class CSVReadStatistics: Sendable {
  private let searched = Atomic<Int>(0)
  private let parsed = Atomic<Int>(0)
  private let tries = Atomic<Int>(0)

  package init() {}

  /// Bytes the record-end searches of the block reader read (line feeds, quotes).
  package var searchedBytes: Int { searched.load(ordering: .relaxed) }
  /// Bytes the block reader handed to its chunk parsers.
  package var parsedBytes: Int { parsed.load(ordering: .relaxed) }
  /// Tries of a block that found no record end (the block grew after each).
  package var blockTriesWithoutRecordEnd: Int { tries.load(ordering: .relaxed) }

  func searched(_ bytes: Int) { searched.add(bytes, ordering: .relaxed) }
  func parsed(_ bytes: Int) { parsed.add(bytes, ordering: .relaxed) }
  func triedWithoutRecordEnd() { tries.add(1, ordering: .relaxed) }
}
