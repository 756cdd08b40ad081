import Foundation

/// The records of a chunk for `CSVReader.parseChunk`: runs of records from the structural
/// index (`UnsafeCSVPlainIndex`, `UnsafeCSVRecordRun`; quoted fields included), every other
/// record (a stray quote, a carriage return outside quotes, ragged) from the scanner, which resumes where the index stopped; the index starts again after it. The
/// records, their fields and every error are the scanner's own; only the scanner's `line`
/// counts just the lines it read itself (`parseChunk` reports no lines: a chunk with an error
/// is read again by its caller).
///
/// Invariants: `scanner` and `index` read the same buffer, which outlives this source; the
/// index is used only while it is not `nil`, and `fields` has room for `width` fields. Where the
/// scanner reads a record it starts exactly at the index's `position` (the byte after the last
/// record the index gave, or the chunk's start), so no byte is read twice or skipped. The owner
/// calls `deallocate()` exactly once.
struct UnsafeCSVRecordSource {
  private(set) var scanner: UnsafeCSVScanner
  private var index: UnsafeCSVPlainIndex?
  /// Records the scanner read for the index, and records the index gave.
  private(set) var irregular = 0, fromIndex = 0

  /// A source over `buffer` that takes its plain records from the structural index if
  /// `indexes` (`CSVReadStrategy.indexesPlainRecords`), else from the scanner alone (the
  /// records are the same).
  init(_ buffer: UnsafeBufferPointer<UInt8>, delimiter: UInt8, width: Int, indexes: Bool) {
    scanner = UnsafeCSVScanner(buffer, delimiter: delimiter, atFileStart: false)
    index = indexes ? UnsafeCSVPlainIndex(buffer, delimiter: delimiter, width: width) : nil
  }

  func deallocate() { index?.deallocate() }

  /// What `nextBatch` found.
  enum Batch {
    /// Plain records from the index (valid until the next call).
    case run(UnsafeCSVRecordRun)
    /// One record in the field buffer, from the scanner.
    case record
    /// No record is left.
    case end
  }

  /// The next records: a run of at most `most` (at least 1) plain records from the index, or one
  /// record from the scanner in `fields` (`skipFrom` as the scanner takes it).
  @inline(__always)
  mutating func nextBatch(into fields: inout UnsafeCSVFieldBuffer, skipFrom: Int, most: Int) throws(CSVError) -> Batch {
    if index != nil {
      switch index!.nextRun(most: most) {
      case .run(let run):
        fromIndex &+= run.count
        return .run(run)
      case .end:
        return .end
      case .irregular(let position):
        irregular &+= 1
        scanner.resume(at: position)
        let found = try scanner.nextRecord(into: &fields, skipFrom: skipFrom) != nil
        if irregular >= 32 && irregular &* 8 > fromIndex {
          // Mostly irregular (CRLF, stray quotes): the scanner alone from here.
          index!.deallocate()
          index = nil
        } else {
          index!.restart(at: scanner.position)
        }
        return found ? .record : .end
      }
    }
    return try scanner.nextRecord(into: &fields, skipFrom: skipFrom) != nil ? .record : .end
  }
}
