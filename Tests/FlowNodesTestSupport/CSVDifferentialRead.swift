import FlowNodes
import FlowRuntime
import FlowTestSupport
import Foundation

/// The CSV reader's paths read one input and must agree (the `csv` target of `flow-bench fuzz`,
/// and `CSVDifferentialReadTests`): the serial reader (`CSVReader.parse`) is the reference; the
/// parallel block reader (`UnsafeCSVBlockReader`) from memory and from a file at 1, 2 and 7
/// workers with tiny blocks, and the streamed morsels (`CSVMorsels.read`), must give the same
/// table (names, types, row count, cells) or an error with the same text. A parallel read that
/// declines (`nil`) is one `readCSV` answers with the serial read, and a morsel read that gives
/// up (`CSVMorsels.Fallback`) one the streamed chain reads whole: both count as equal. Morsels
/// that succeed must equal the reference's rows (and the reference must succeed); a morsel read
/// that fails otherwise must fail with the reference's error.
///
/// Which options an input is read with (delimiter, header, null tokens, a projection of the
/// header's names) and how each parallel read is configured (block sizes, in-place numbers and
/// strings, the plain-record index, dictionaries) comes from `seed`: a campaign covers the
/// combinations over its inputs while one input costs six reads. Blocks grow with the input
/// (at most a few dozen per read), so a 32 KB input stays cheap.
package enum CSVDifferentialRead {
  /// What one input gave.
  package struct Verdict: Sendable, Equatable {
    /// Whether the reference read gave a table (else it failed with an error).
    package var referenceReadsTable: Bool
    /// The first difference from the reference (the options, the configuration, what differs),
    /// at most `longestDescription` characters; `nil` if every read agreed.
    package var difference: String?
    /// The reads compared with the reference (the others declined: the serial read stands).
    package var comparedReads: Int
  }

  /// A read that failed, as its error's text (errors compare by their text).
  package struct ReadFailure: Error, Equatable, Sendable {
    package var text: String
    package init(_ text: String) { self.text = text }
  }

  /// A read's outcome: a table, or the error it failed with.
  package typealias Outcome = Result<Table, ReadFailure>

  /// The longest difference description (longer ones are cut).
  static let longestDescription = 600

  /// The delimiters an input may be read with.
  static let delimiters = Array(",;\t|".utf8)

  /// The delimiter of `delimiters` most frequent in the first line of `bytes` (`,` if none is
  /// there): the one the input was most likely written with.
  package static func commonDelimiter(of bytes: [UInt8]) -> UInt8 {
    let firstLine = bytes.prefix { $0 != UInt8(ascii: "\n") }
    let counts = delimiters.map { delimiter in firstLine.count(where: { $0 == delimiter }) }
    return delimiters[counts.firstIndex(of: counts.max()!)!]
  }

  /// Reads `bytes` with the reference and five configurations `seed` picks (from memory, from
  /// a file at 1, 2 and 7 workers, as morsels), file reads only if `folder` is given.
  ///
  /// - Parameters:
  ///   - bytes: the CSV input (kept short by the caller: every read holds it whole).
  ///   - seed: chooses the options and configurations (the same seed, the same reads).
  ///   - folder: where the file reads put the input, or `nil` to read from memory only.
  /// - Returns: whether the reference read a table, the first difference, the reads compared.
  package static func check(_ bytes: [UInt8], seed: UInt64, folder: ScratchFolder?) -> Verdict {
    var random = SeededRandom(seed: seed)
    let options = Options(bytes, random: &random)
    var reference = options.reader()
    reference.strategy.encodesDictionaries = Bool.random(using: &random)
    let expected = outcome { try reference.readSerially(bytes) }!  // never declines
    var verdict = Verdict(referenceReadsTable: (try? expected.get()) != nil, difference: nil, comparedReads: 0)
    let workers = [1, 2, 7]
    let memoryWorkers = workers.randomElement(using: &random)!
    var configurations = [Configuration(.memory, options, workers: memoryWorkers, size: bytes.count, &random)]
    var file: CheckedFile?
    if let folder {
      do { file = try folder.file(holding: bytes) } catch {
        verdict.difference = "cannot make the input file: \(error)"
        return verdict
      }
      let morselWorkers = workers.randomElement(using: &random)!
      let reads: [(Configuration.Source, Int)] = workers.map { (.file, $0) } + [(.morsels, morselWorkers)]
      for (source, count) in reads {
        configurations.append(Configuration(source, options, workers: count, size: bytes.count, &random))
      }
    }
    for configuration in configurations {
      switch configuration.compare(bytes, file: file, with: expected) {
      case .declined: continue
      case .equal: verdict.comparedReads += 1
      case .different(let found):
        verdict.comparedReads += 1
        verdict.difference = String("\(options); \(configuration): \(found)".prefix(longestDescription))
        return verdict
      }
    }
    return verdict
  }

  /// The first difference between the reference's outcome and another read's, or `nil`.
  package static func difference(_ expected: Outcome, _ actual: Outcome) -> String? {
    switch (expected, actual) {
    case (.success(let reference), .success(let table)):
      return tableDifference(reference, table)
    case (.failure(let reference), .failure(let failure)):
      return reference == failure ? nil : "error \(short(reference.text)) vs \(short(failure.text))"
    case (.success(let reference), .failure(let failure)):
      return "the reference read \(reference.rowCount) rows, this read failed: \(short(failure.text))"
    case (.failure(let reference), .success(let table)):
      return "the reference failed (\(short(reference.text))), this read gave \(table.rowCount) rows"
    }
  }

  /// The first difference between two tables (names, row count, then column by column: the
  /// type, then the first row whose cells differ), or `nil` if they are equal.
  package static func tableDifference(_ expected: Table, _ actual: Table) -> String? {
    if expected.columnNames != actual.columnNames {
      return "column names \(short("\(expected.columnNames)")) vs \(short("\(actual.columnNames)"))"
    }
    if expected.rowCount != actual.rowCount { return "\(expected.rowCount) rows vs \(actual.rowCount)" }
    for index in 0..<expected.columnCount {
      let reference = expected.column(at: index), column = actual.column(at: index)
      let name = short(expected.columnNames[index])
      if reference.type != column.type { return "column \(name): \(reference.type) vs \(column.type)" }
      guard reference != column else { continue }
      for row in 0..<expected.rowCount where !sameCell(reference[row], column[row]) {
        return "column \(name) row \(row) (from 0): \(short("\(reference[row])")) vs \(short("\(column[row])"))"
      }
      return "column \(name): unequal columns of equal cells"
    }
    return nil
  }

  /// The first difference between the reference and the morsels of a read that gave `rows` rows.
  /// (A morsel read that gives up is not compared: the streamed chain, `StreamedChain`, reads
  /// the file whole after it. Any other error is compared with the reference's: the readers
  /// check the header's names before any record, so a repeated name is the same error first on
  /// every path.)
  static func morselDifference(_ expected: Outcome, _ morsels: [Table], rows: Int) -> String? {
    let whole: Table
    switch expected {
    case .success(let table): whole = table
    case .failure(let failure): return "the reference failed (\(short(failure.text))), the morsels read \(rows) rows"
    }
    var start = 0
    for (index, morsel) in morsels.enumerated() {
      // (The slice stops at the reference's last row: morsels past it differ in row count.)
      if let found = tableDifference(whole.slice(start..<start + morsel.rowCount), morsel) {
        return "morsel \(index) (from row \(start)): \(found)"
      }
      start += morsel.rowCount
    }
    guard start == whole.rowCount && rows == start else {
      return "the morsels hold \(start) rows (\(rows) counted), the reference \(whole.rowCount)"
    }
    return nil
  }

  /// The outcome of `body`: its table, its error as text, or `nil` if it declined.
  static func outcome(_ body: () throws -> Table?) -> Outcome? {
    do { return try body().map { .success($0) } } catch { return .failure(ReadFailure("\(error)")) }
  }

  /// Whether two cells are equal (numbers by bit pattern, as `Column`'s equality has them).
  static func sameCell(_ a: Value, _ b: Value) -> Bool {
    if case .number(let x) = a, case .number(let y) = b { return x.bitPattern == y.bitPattern }
    return a == b
  }

  /// `text` quoted, cut to 60 characters.
  static func short(_ text: String) -> String {
    text.count <= 60 ? "'\(text)'" : "'\(text.prefix(57))...'"
  }
}
