import Foundation
import Testing
import FlowGraph
@testable import FlowNodes
@testable import FlowRuntime
import FlowTestSupport
import FlowNodesTestSupport

/// The CSV reader's strategy switches (`CSVReadStrategy`): each one, turned off, reads the same
/// table as turned on — names, column types, row count and cells (a text column may be stored
/// flat or dictionary-encoded, its strings the same) — over random seeded CSVs with integers,
/// numbers, bools, dates, low- and high-cardinality text, long strings (some longer than a
/// block), nulls and empty quoted strings, quoted fields holding delimiters, line breaks, CRLF
/// and escaped quotes, columns that widen or turn to text late, CRLF line ends and blank
/// lines, read in many tiny blocks at 1, 2, 3 and 7 workers (from a file for the in-place
/// switches, which only a file's later blocks reach; else from a file or from memory), the
/// other switches drawn at random, and against the serial read. And `readCSV` takes the
/// strategy from its environment.
@Suite struct CSVReadStrategyTests {
  /// One switch of the strategy.
  enum Switch: String, CaseIterable, Sendable {
    case numbersInPlace, stringsInPlace, plainIndex, dictionaries

    func set(_ strategy: inout CSVReadStrategy, _ on: Bool) {
      switch self {
      case .numbersInPlace: strategy.convertsNumbersInPlace = on
      case .stringsInPlace: strategy.copiesStringsInPlace = on
      case .plainIndex: strategy.indexesPlainRecords = on
      case .dictionaries: strategy.encodesDictionaries = on
      }
    }
  }

  /// A random CSV of `rows` rows and `width` columns, each column of one flavour.
  static func randomCSV(_ random: inout SeededRandom, rows: Int, width: Int) -> String {
    func pick(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }
    let flavours = (0..<width).map { _ in pick(0..<12) }
    var text = (0..<width).map { "c\($0)" }.joined(separator: ",") + "\n"
    for row in 0..<rows {
      let late = row > rows * 2 / 3 && pick(0..<30) == 0
      var cells: [String] = []
      for column in 0..<width {
        let roll = pick(0..<25)
        if roll == 0 { cells.append(["", "NA", "N/A", "null", "NaN"][pick(0..<5)]); continue }
        if roll == 1 && flavours[column] >= 5 { cells.append("\"\""); continue }  // an empty string, not a null
        switch flavours[column] {
        case 0: cells.append("\(pick(-1_000_000..<1_000_000))")
        case 1: cells.append(late ? "\(Double(pick(-999..<999)) / 8)" : "\(pick(0..<1_000))")  // widens late
        case 2:
          cells.append(
            [
              "\"\(pick(0..<50))\"", " \(pick(0..<50)) ", "1e3", "-0", "\(Double(pick(0..<10_000)) / 100)",
              "98765432109876543210"
            ][pick(0..<6)])
        case 3: cells.append(["true", "false"][pick(0..<2)])
        case 4: cells.append(late ? "late text" : "\(pick(0..<9))")  // turns to text after numbers
        case 5: cells.append("2024-\(pick(10..<13))-\(pick(10..<29))")  // dates (text)
        case 6: cells.append("2013-0\(pick(1..<10))-1\(pick(0..<10)) \(pick(10..<24)):\(pick(10..<60)):00")
        case 7: cells.append(["AA", "UA", "DL", "é", "x y"][pick(0..<5)])  // low cardinality
        case 8: cells.append("N\(row)\(["UA", "JB"][pick(0..<2)])")  // every cell distinct
        case 9:
          cells.append(
            ["\"a,b\"", "\"two\nlines\"", "\"say \"\"hi\"\"\"", "\"\"\"\"", "\"cr\r\nlf\"", "plain"][pick(0..<6)])
        case 10: cells.append(String(repeating: "long\(pick(0..<10))", count: pick(1..<40)))
        default:
          cells.append(
            pick(0..<80) == 0 ? "\"" + String(repeating: "w,\n", count: pick(100..<900)) + "\"" : "v\(pick(0..<300))")
        }
      }
      text += cells.joined(separator: ",")
      text += pick(0..<10) == 0 ? "\r\n" : "\n"
      if pick(0..<40) == 0 { text += "\n" }
    }
    return text
  }

  /// A block reader over many tiny blocks (a few dozen per read of `size` bytes).
  static func reader(size: Int, _ random: inout SeededRandom) -> CSVReader {
    func pick(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }
    var reader = CSVReader()
    reader.workers = [1, 2, 3, 7][pick(0..<4)]
    reader.blockBytesPerWorker = Swift.max([256, 700, 2_048][pick(0..<3)], size / (reader.workers * 24))
    reader.firstBlockBytesPerWorker = [64, 256, 1_024][pick(0..<3)]
    reader.parallelThreshold = 0
    reader.minimumChunkBytes = 1
    reader.strategy = CSVReadStrategy(
      convertsNumbersInPlace: Bool.random(using: &random), copiesStringsInPlace: Bool.random(using: &random),
      indexesPlainRecords: Bool.random(using: &random), encodesDictionaries: Bool.random(using: &random))
    return reader
  }

  @Test(arguments: Switch.allCases)
  func aSwitchOffReadsTheTableItReadsOn(_ which: Switch) throws {
    let folder = try CSVDifferentialRead.ScratchFolder()
    defer { folder.remove() }
    var random = SeededRandom(seed: 0x5EED_0044 &+ UInt64(Switch.allCases.firstIndex(of: which)!))
    var compared = 0
    for round in 0..<32 {
      let bytes = Array(
        Self.randomCSV(
          &random, rows: Int.random(in: 20..<700, using: &random),
          width: Int.random(in: 2..<10, using: &random)
        ).utf8)
      var on = Self.reader(size: bytes.count, &random), off = on
      which.set(&on.strategy, true)
      which.set(&off.strategy, false)
      // Bytes in memory are one block: only a file reaches the in-place columns.
      let fromFile = which == .numbersInPlace || which == .stringsInPlace || Bool.random(using: &random)
      func read(_ reader: CSVReader) throws -> Table? {
        if fromFile { return try UnsafeCSVBlockReader(reader: reader).read(try folder.file(holding: bytes)) }
        return try bytes.withUnsafeBufferPointer { try UnsafeCSVBlockReader(reader: reader).read($0) }
      }
      let context =
        "round \(round), \(which), \(fromFile ? "file" : "memory"), \(on.workers) workers, blocks \(on.blockBytesPerWorker) B"
      let serial = try bytes.withUnsafeBufferPointer { try off.parse($0) }
      let tableOn = try #require(try read(on), "\(context): the parallel read declined")
      let tableOff = try #require(try read(off), "\(context): the parallel read declined")
      #expect(
        CSVDifferentialRead.tableDifference(tableOff, tableOn) == nil,
        "\(context): \(CSVDifferentialRead.tableDifference(tableOff, tableOn) ?? "")")
      #expect(tableOn == tableOff, "\(context)")
      #expect(CSVDifferentialRead.tableDifference(serial, tableOn) == nil, "\(context) against the serial read")
      if which == .dictionaries {
        // The serial reader encodes too: on and off, the same table.
        let serialOn = try bytes.withUnsafeBufferPointer { try on.parse($0) }
        #expect(CSVDifferentialRead.tableDifference(serial, serialOn) == nil, "\(context): the serial reads")
        #expect(
          (0..<tableOff.columnCount).allSatisfy { !tableOff.column(at: $0).isDictionaryEncoded },
          "\(context): off, every column is flat")
      }
      compared += 1
    }
    #expect(compared == 32)
  }

  /// The dictionary switch changes the storage only: on, a low-cardinality text column is
  /// encoded; off, it is flat; its strings are the same.
  @Test func theDictionarySwitchChangesOnlyTheStorage() throws {
    var random = SeededRandom(seed: 7)
    let bytes = Array(
      ("city,n\n"
        + (0..<2_000).map {
          "\(["Oslo", "\"Saint-Denis, Réunion\"", "Zürich"][Int.random(in: 0..<3, using: &random)]),\($0)"
        }
        .joined(separator: "\n") + "\n").utf8)
    var on = CSVReader(), off = CSVReader()
    off.strategy.encodesDictionaries = false
    let encoded = try bytes.withUnsafeBufferPointer { try on.parse($0) }
    let flat = try bytes.withUnsafeBufferPointer { try off.parse($0) }
    #expect(encoded.column(named: "city")!.isDictionaryEncoded)
    #expect(!flat.column(named: "city")!.isDictionaryEncoded)
    #expect(encoded == flat)
    on.strategy = .plain
    #expect(try bytes.withUnsafeBufferPointer { try on.parse($0) }.column(named: "city")!.isDictionaryEncoded == false)
  }

  /// `readCSV` hands its reader the strategy of the environment it is configured in (the
  /// default: every path on), and reads the same table with every path off.
  @Test(arguments: [
    CSVReadStrategy(), .plain, CSVReadStrategy(convertsNumbersInPlace: false, encodesDictionaries: false)
  ])
  func readCSVTakesTheStrategyFromItsEnvironment(_ strategy: CSVReadStrategy) throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var random = SeededRandom(seed: 44)
    try Data(Self.randomCSV(&random, rows: 400, width: 6).utf8).write(to: URL(fileURLWithPath: folder + "/t.csv"))
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: folder, csvRead: strategy)
    guard case .success(let node) = registry.configure(NodeSpec(kind: "readCSV", params: ["path": "t.csv"])) else {
      Issue.record("readCSV did not configure")
      return
    }
    let evaluator = try #require(node.instance.evaluator as? ReadCSVNode.Evaluator)
    #expect(evaluator.reader.strategy == strategy)
    let table = try KindHarness.run("readCSV", ["path": "t.csv"], environment: registry.environment)
    let plain = try KindHarness.run(
      "readCSV", ["path": "t.csv"], environment: EvaluationEnvironment(documentFolder: folder, csvRead: .plain))
    #expect(table == plain)
    #expect(EvaluationEnvironment().csvRead == CSVReadStrategy(), "every path is on by default")
  }
}
