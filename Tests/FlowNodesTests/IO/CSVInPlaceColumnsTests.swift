import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime
import FlowTestSupport

/// The parallel reader's in-place numeric columns (`UnsafeCSVDirectColumn`: from the second
/// block on, integer and number cells are converted straight into the table's columns) against
/// the byte-at-a-time reference scanner (`CSVScannerReferenceTests.reference`) typed by the
/// rule of Reference.md, "Table semantics", and against the piece-and-merge path and the serial reader: random CSVs
/// whose numeric columns widen, conflict or turn to text late, with quoted and padded numbers,
/// nulls, long integers, blank lines, CRLF and line breaks inside quotes, at several block
/// sizes and worker counts.
@Suite struct CSVInPlaceColumnsTests {
  static func randomCSV(_ random: inout SeededRandom, rows: Int, width: Int) -> String {
    let flavours = (0..<width).map { _ in random.pick(0..<8) }
    var text = (0..<width).map { "c\($0)" }.joined(separator: ",") + "\n"
    for row in 0..<rows {
      let late = row > rows * 3 / 4 && random.pick(0..<40) == 0
      var cells: [String] = []
      for column in 0..<width {
        let roll = random.pick(0..<24)
        if roll == 0 { cells.append(""); continue }
        if roll == 1 { cells.append("NA"); continue }
        switch flavours[column] {
        case 0: cells.append("\(random.pick(-100_000..<100_000))")
        // widens late
        case 1: cells.append(late ? "\(Double(random.pick(-999..<999)) / 8)" : "\(random.pick(0..<1_000))")
        case 2: cells.append(roll == 2 ? "\(random.pick(0..<100))" : "\(Double(random.pick(-10_000..<10_000)) / 100)")
        case 3: cells.append(late ? "late text" : "\(random.pick(0..<9))")  // a conflict after the first block
        case 4: cells.append(late ? "true" : "\(Double(random.pick(0..<90)) / 4)")
        case 5:
          // Quoted, padded, long and exponent numbers (the general parser's cells).
          cells.append(
            [
              "\"\(random.pick(0..<50))\"", " \(random.pick(0..<50)) ", "12345678901234",
              "98765432109876543210", "1e3", "\"2.5\"", "-0", "\(random.pick(0..<9))"
            ][random.pick(0..<8)])
        case 6: cells.append(["x", "\"a,b\"", "\"two\nlines\"", "\"say \"\"hi\"\"\""][random.pick(0..<4)])
        default: cells.append(roll < 12 ? "NA" : "\(random.pick(0..<9))")
        }
      }
      text += cells.joined(separator: ",")
      text += random.pick(0..<8) == 0 ? "\r\n" : "\n"
      if random.pick(0..<30) == 0 { text += "\n" }
    }
    return text
  }

  /// The table Reference.md, "Table semantics" makes of the reference scanner's records: nulls are unquoted null
  /// tokens; a column is integer if every other cell (trimmed of spaces) is an `Int64`, else
  /// number if every one is a number, else bool, else text; an all-null column is integer.
  static func referenceRows(_ bytes: [UInt8]) -> [[Value]]? {
    guard case .success(let records) = CSVScannerReferenceTests.reference(bytes), let header = records.first else {
      return nil
    }
    let width = header.fields.count
    let nullTokens = CSVReader.defaultNullValues.map { Array($0.utf8) }
    let cells: [[String?]] = records.dropFirst().map { record in
      record.fields.map { field in
        !field.quoted && nullTokens.contains(field.bytes) ? nil : String(decoding: field.bytes, as: UTF8.self)
      }
    }
    var columns: [[Value]] = []
    for column in 0..<width {
      let texts = cells.map { $0[column] }
      let present = texts.compactMap { $0?.trimmingCharacters(in: .whitespaces) }
      let values: [Value]
      if present.allSatisfy({ Int64($0) != nil && !$0.hasPrefix("+") }) {
        values = texts.map { $0.map { .integer(Int64($0.trimmingCharacters(in: .whitespaces))!) } ?? .null }
      } else if present.allSatisfy({ Double($0) != nil }) {
        values = texts.map { $0.map { .number(Double($0.trimmingCharacters(in: .whitespaces))!) } ?? .null }
      } else if texts.compactMap({ $0 }).allSatisfy({ $0 == "true" || $0 == "false" }) {
        values = texts.map { $0.map { .bool($0 == "true") } ?? .null }
      } else {
        values = texts.map { $0.map { .string($0) } ?? .null }
      }
      columns.append(values)
    }
    return cells.indices.map { row in (0..<width).map { columns[$0][row] } }
  }

  /// The parallel read of `bytes` from a file (a file is read in blocks; bytes in memory are
  /// one block, so only a file reaches the in-place columns).
  static func read(_ bytes: [UInt8], workers: Int, block: Int, inPlace: Bool, firstBlock: Int? = nil) throws -> Table? {
    try readFile(bytes, workers: workers, block: block) { reader in
      reader.strategy.convertsNumbersInPlace = inPlace
      reader.firstBlockBytesPerWorker = firstBlock ?? block
    }
  }

  /// `bytes` written to a file of their own (the suites' tests run in parallel) and read in
  /// blocks of `block` bytes per worker, with `configure`'s switches.
  static func readFile(_ bytes: [UInt8], workers: Int, block: Int, _ configure: (inout CSVReader) -> Void) throws
    -> Table?
  {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(bytes).write(to: URL(fileURLWithPath: folder + "/t.csv"))
    let file = try FileAccessPolicy.unrestricted.open(folder + "/t.csv", relativeTo: folder)
    var reader = CSVReader()
    reader.workers = workers
    reader.blockBytesPerWorker = block
    reader.parallelThreshold = 0
    reader.minimumChunkBytes = 1
    configure(&reader)
    return try UnsafeCSVBlockReader(reader: reader).read(file)
  }

  @Test func inPlaceColumnsEqualTheReferenceAndThePieceMerge() throws {
    var random = SeededRandom(seed: 2_026)
    var compared = 0
    for round in 0..<24 {
      let width = random.pick(1..<9)
      let bytes = Array(Self.randomCSV(&random, rows: random.pick(50..<1_500), width: width).utf8)
      let expected = Self.referenceRows(bytes)
      let serial = try bytes.withUnsafeBufferPointer { try CSVReader().parse($0) }
      #expect(
        expected != nil && KindHarness.rows(serial) == expected!, "round \(round): serial reader against the reference")
      for workers in [1, 2, 3, 7] {
        for block in [128, 700, 4_096] {
          let merged = try Self.read(bytes, workers: workers, block: block, inPlace: false)
          // Half the rounds type the columns on a short first block (a quarter block per
          // worker: sometimes no record ends in it).
          let table = try Self.read(
            bytes, workers: workers, block: block, inPlace: true, firstBlock: round % 2 == 0 ? block / 4 : nil)
          #expect(table != nil && merged != nil, "round \(round), \(workers) workers, block \(block): declined")
          guard let table, let merged else { continue }
          #expect(
            table == merged && table == serial && table.columns.map(\.type) == serial.columns.map(\.type),
            "round \(round), \(workers) workers, block \(block)")
          #expect(KindHarness.rows(table) == expected ?? [], "round \(round), \(workers) workers, block \(block)")
          compared += 1
        }
      }
    }
    #expect(compared == 24 * 4 * 3)
  }

  @Test func aColumnThatWidensInALaterBlockKeepsEveryCell() throws {
    // Integers for many blocks, then one number: the integer rows become numbers in place.
    var text = "a,b\n"
    for row in 0..<3_000 { text += row == 2_500 ? "2.5,\(row)\n" : "\(row),\(row % 7 == 0 ? "NA" : "\(row)")\n" }
    let bytes = Array(text.utf8)
    let table = try #require(try Self.read(bytes, workers: 2, block: 1_024, inPlace: true))
    #expect(table.columns.map(\.type) == [.number, .integer])
    #expect(table.row(2_500) == [.number(2.5), .integer(2_500)])
    #expect(table.row(2_498) == [.number(2_498), .integer(2_498)])
    #expect(table.row(7) == [.number(7), .null])
    #expect(table == (try bytes.withUnsafeBufferPointer { try CSVReader().parse($0) }))
  }

  @Test func numericNullTokensAreNullInPlace() throws {
    // A null token that is a plain number: the in-place columns test for null before they
    // convert (`CSVNullTest.numbersFirst` is false), as the serial reader does.
    var text = "a,b\n"
    for row in 0..<2_000 { text += "\(row % 9 == 0 ? "0" : "\(row)"),\(row % 4 == 0 ? "-1.5" : "\(row).25")\n" }
    let bytes = Array(text.utf8)
    let tokens = [Array("0".utf8), Array("-1.5".utf8)]
    #expect(
      !CSVNullTest(tokens).numbersFirst && CSVNullTest(CSVReader.defaultNullValues.map { Array($0.utf8) }).numbersFirst)
    let table = try #require(try Self.readFile(bytes, workers: 2, block: 1_024) { $0.nullTokens = tokens })
    var serialReader = CSVReader()
    serialReader.nullTokens = tokens
    #expect(table == (try bytes.withUnsafeBufferPointer { try serialReader.parse($0) }))
    #expect(table.row(1_980) == [.null, .null] && table.row(1_999) == [.integer(1_999), .number(1_999.25)])
  }

  @Test func indexedAndScannedChunksGiveTheSameTable() throws {
    var random = SeededRandom(seed: 311)
    for round in 0..<12 {
      let bytes = Array(Self.randomCSV(&random, rows: random.pick(200..<1_500), width: random.pick(1..<9)).utf8)
      for workers in [2, 3] {
        let indexed = try Self.readFile(bytes, workers: workers, block: 700) { $0.strategy.indexesPlainRecords = true }
        let scanned = try Self.readFile(bytes, workers: workers, block: 700) { $0.strategy.indexesPlainRecords = false }
        #expect(indexed != nil && indexed == scanned, "round \(round), \(workers) workers")
      }
    }
  }

  /// A CSV of plain records only (no quote, no carriage return: the index gives runs of them),
  /// each column of one kind: integers (long, negative), integers that widen late, numbers,
  /// numbers that meet a word late, bools, a few strings (a dictionary), many strings (past
  /// the dictionary's limit), nulls in every kind; blank lines now and then.
  static func plainCSV(_ random: inout SeededRandom, rows: Int, width: Int) -> String {
    let kinds = (0..<width).map { _ in random.pick(0..<8) }
    var text = (0..<width).map { "p\($0)" }.joined(separator: ",") + "\n"
    for row in 0..<rows {
      let late = row > rows * 2 / 3 && random.pick(0..<30) == 0
      text +=
        kinds.map { kind -> String in
          if random.pick(0..<20) == 0 { return ["", "NA", "0"][random.pick(0..<3)] }
          switch kind {
          case 0: return "\(random.pick(-99_999..<99_999))"
          case 1: return ["\(random.pick(0..<10))", "123456789012345678", "-42", "12345678"][random.pick(0..<4)]
          case 2: return late ? "\(random.pick(0..<50)).5" : "\(random.pick(0..<5_000))"
          case 3: return "\(random.pick(-9_999..<9_999)).\(random.pick(0..<100))"
          case 4: return late ? "word" : "\(random.pick(0..<100)).25"
          case 5: return random.pick(0..<2) == 0 ? "true" : "false"
          case 6: return ["JFK", "LGA", "EWR", "B6", "a longer carrier name"][random.pick(0..<5)]
          default: return "N\(random.pick(0..<2_000))X"
          }
        }.joined(separator: ",") + "\n"
      if random.pick(0..<60) == 0 { text += "\n" }
    }
    return text
  }

  @Test func plainRunsConvertLikeTheSerialReader() throws {
    // Runs of plain records go a column at a time into the in-place columns, the string spans
    // and the pieces (whose parsers change type, turn flat or need a rescan mid-run).
    var random = SeededRandom(seed: 2_611)
    var compared = 0
    for round in 0..<10 {
      let bytes = Array(Self.plainCSV(&random, rows: random.pick(300..<2_500), width: random.pick(1..<10)).utf8)
      let tokens =
        round % 3 == 0 ? [Array("0".utf8), Array("NA".utf8), []] : CSVReader.defaultNullValues.map { Array($0.utf8) }
      var serialReader = CSVReader()
      serialReader.nullTokens = tokens
      let serial = try bytes.withUnsafeBufferPointer { try serialReader.parse($0) }
      for workers in [1, 2, 3] {
        for inPlace in [true, false] {
          // Small blocks (many chunks), and blocks whose chunks pass the dictionary's limit.
          let table = try Self.readFile(bytes, workers: workers, block: round % 2 == 0 ? 2_048 : 24_000) { reader in
            reader.nullTokens = tokens
            reader.strategy.convertsNumbersInPlace = inPlace
            reader.firstBlockBytesPerWorker = 512
          }
          #expect(table != nil && table == serial, "round \(round), \(workers) workers, in place \(inPlace)")
          #expect(table.map { $0.columns.map(\.type) } == serial.columns.map(\.type), "round \(round)")
          compared += 1
        }
      }
    }
    #expect(compared == 60)
  }

  @Test func aFirstRecordLongerThanTheShortFirstBlockIsReadWhole() throws {
    // No record ends in the short first block (16 bytes per worker): the whole block is parsed.
    var text = "name,value,note\n"
    for row in 0..<400 {
      text +=
        "row \(row) \(String(repeating: "x", count: 40 + row % 30)),\(row * 3),\(row % 5 == 0 ? "NA" : "n\(row % 7)")\n"
    }
    let bytes = Array(text.utf8)
    for workers in [1, 2, 3] {
      let table = try #require(
        try Self.readFile(bytes, workers: workers, block: 1_024) { $0.firstBlockBytesPerWorker = 16 })
      #expect(table == (try bytes.withUnsafeBufferPointer { try CSVReader().parse($0) }), "\(workers) workers")
      #expect(table.rowCount == 400 && table.row(399)[1] == .integer(1_197))
    }
  }

  @Test func aWideFileConvertsTheFirstColumnsInPlaceAndMergesTheRest() throws {
    let width = UnsafeCSVDirectColumn.mostColumns + 40
    var text = (0..<width).map { "c\($0)" }.joined(separator: ",") + "\n"
    for row in 0..<120 {
      text +=
        (0..<width).map { column in (row + column) % 11 == 0 ? "NA" : "\(row * column)" }.joined(separator: ",") + "\n"
    }
    let bytes = Array(text.utf8)
    let table = try #require(try Self.read(bytes, workers: 2, block: 4_096, inPlace: true))
    #expect(table == (try bytes.withUnsafeBufferPointer { try CSVReader().parse($0) }))
    #expect(table.row(118)[width - 1] == .integer(118 * Int64(width - 1)))
  }
}

extension SeededRandom {
  /// A value in `range` (not empty).
  fileprivate mutating func pick(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
}
