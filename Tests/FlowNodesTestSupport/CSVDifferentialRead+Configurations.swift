import FlowNodes
import FlowRuntime
import FlowTestSupport
import Foundation

/// The scratch folder, the options and the read configurations of `CSVDifferentialRead`.
extension CSVDifferentialRead {
  /// The folder the file reads write their input to, made once (per campaign or test) and
  /// removed by `remove()`. Each input is written, opened through the sandboxed resolver
  /// (`FileAccessPolicy.open`, allowing this folder alone) and its name unlinked at once: the
  /// open descriptor keeps the bytes, so the folder is empty between reads, even after a trap.
  package final class ScratchFolder: Sendable {
    /// The folder's absolute path.
    package let path: String

    /// Makes a new folder under the temporary directory.
    ///
    /// - Throws: the error creating it.
    package init() throws {
      let name = "flow-csv-differential-\(getpid())-\(UUID().uuidString.prefix(8))"
      path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// `bytes` as a file opened for reading, its name already removed.
    package func file(holding bytes: [UInt8]) throws -> CheckedFile {
      let name = "input.csv"
      try Data(bytes).write(to: URL(fileURLWithPath: path + "/" + name))
      defer { unlink(path + "/" + name) }
      return try FileAccessPolicy(readableRoots: [path], writableRoots: []).open(name, relativeTo: path)
    }

    /// Removes the folder (and anything left in it).
    package func remove() { try? FileManager.default.removeItem(atPath: path) }
  }

  /// The reader options one input is read with by every path.
  struct Options: CustomStringConvertible {
    static let nullTokenSets = [
      [], ["-", "NULL"], ["0", "", "n/a"], ["", "a long missing marker"],
      ["NA", "nan", "x", "true"]
    ]

    var delimiter = UInt8(ascii: ",")
    var header = true
    /// `nil`: the default tokens.
    var nullTokens: [String]?
    /// `nil`: every column.
    var columns: Set<String>?

    /// Options drawn from `random`: the delimiter most frequent in the first line (or any),
    /// the header mostly on, the null tokens mostly the default, a projection half the time.
    init(_ bytes: [UInt8], random: inout SeededRandom) {
      let common = CSVDifferentialRead.commonDelimiter(of: bytes)
      delimiter =
        Int.random(in: 0..<5, using: &random) < 3
        ? common : CSVDifferentialRead.delimiters.randomElement(using: &random)!
      header = Int.random(in: 0..<8, using: &random) != 0
      if Int.random(in: 0..<4, using: &random) == 0 { nullTokens = Self.nullTokenSets.randomElement(using: &random)! }
      if Bool.random(using: &random) {
        let header = reader().header(in: bytes, complete: true)
        let names = header?.names ?? []
        var chosen = Set(names.filter { _ in Bool.random(using: &random) })
        if Int.random(in: 0..<4, using: &random) == 0 { chosen.insert("not in the file") }
        columns = chosen
      }
    }

    /// A reader with these options (and the defaults otherwise).
    func reader() -> CSVReader {
      var reader = CSVReader()
      reader.delimiter = delimiter
      reader.header = header
      if let nullTokens { reader.nullTokens = nullTokens.map { Array($0.utf8) } }
      reader.columns = columns
      return reader
    }

    var description: String {
      let nulls = nullTokens.map { "\($0)" } ?? "default"
      let kept = columns.map { CSVDifferentialRead.short("\($0.sorted())") } ?? "all"
      let separator = CSVDifferentialRead.short(String(UnicodeScalar(delimiter)))
      return "delimiter \(separator), header \(header), nulls \(nulls), columns \(kept)"
    }
  }

  /// How one parallel read is made.
  struct Configuration: CustomStringConvertible {
    enum Source: String { case memory, file, morsels }

    /// What a read made this way gave, against the reference's outcome.
    enum Comparison: Equatable {
      /// The read declined (the serial read stands) or, for morsels, gave up (read whole).
      case declined, equal, different(String)
    }

    var source: Source
    /// The options' reader with this read's workers, blocks (`blockBytesPerWorker` is also the
    /// morsel size) and switches.
    var reader: CSVReader

    /// A configuration drawn from `random`: tiny blocks, yet no more than a few dozen per read of
    /// `size` bytes; each switch on or off.
    init(_ source: Source, _ options: Options, workers: Int, size: Int, _ random: inout SeededRandom) {
      self.source = source
      reader = options.reader()
      reader.workers = workers
      let tiny = [16, 64, 256, 1_024].randomElement(using: &random)!
      let blocks = source == .morsels ? 1 : workers
      reader.blockBytesPerWorker = Swift.max(tiny * (source == .morsels ? 2 : 1), size / (blocks * 24))
      reader.firstBlockBytesPerWorker = [8, 32, 128, 512].randomElement(using: &random)!
      reader.parallelThreshold = 0
      reader.minimumChunkBytes = 1
      reader.strategy = CSVReadStrategy(
        convertsNumbersInPlace: Bool.random(using: &random), copiesStringsInPlace: Bool.random(using: &random),
        indexesPlainRecords: Bool.random(using: &random), encodesDictionaries: Bool.random(using: &random))
    }

    /// Reads `bytes` (from memory) or `file` and compares with `expected`.
    func compare(_ bytes: [UInt8], file: CheckedFile?, with expected: Outcome) -> Comparison {
      let read: Outcome?
      switch (source, file) {
      case (.memory, _):
        read = outcome { try reader.readInBlocks(.bytes(bytes)) }
      case (.file, let file?):
        read = outcome { try reader.readInBlocks(.file(file)) }
      case (.morsels, let file?):
        var morsels: [Table] = []
        let morselBytes = reader.blockBytesPerWorker
        let rows: Int
        do {
          rows = try CSVMorsels.read(file, reader: reader, morselBytes: morselBytes) { morsels.append($0) }
        } catch is CSVMorsels.Fallback {
          return .declined
        } catch {
          // Any other failure is one the whole read reports too (a header's repeated name).
          read = .failure(ReadFailure("\(error)"))
          break
        }
        return morselDifference(expected, morsels, rows: rows).map { .different($0) } ?? .equal
      default:
        read = nil
      }
      guard let read else { return .declined }
      return difference(expected, read).map { .different($0) } ?? .equal
    }

    var description: String {
      let strategy = reader.strategy
      let switches = [
        (strategy.convertsNumbersInPlace, "inPlace"), (strategy.copiesStringsInPlace, "stringsInPlace"),
        (strategy.indexesPlainRecords, "index"), (strategy.encodesDictionaries, "dictionaries")
      ]
      let blocks = "blocks \(reader.blockBytesPerWorker)/\(reader.firstBlockBytesPerWorker) B"
      return "\(source.rawValue), \(reader.workers) workers, \(blocks), "
        + switches.map { "\($0.1) \($0.0 ? "on" : "off")" }.joined(separator: ", ")
    }
  }
}
