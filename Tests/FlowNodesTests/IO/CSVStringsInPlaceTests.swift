import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime
import FlowTestSupport

/// The parallel reader's in-place string columns (`UnsafeCSVStringColumn`: from the second
/// block on, a column the first block left flat text is copied from the block straight into
/// the table's column) against the byte-at-a-time reference scanner typed by Reference.md, "Table semantics"
/// (`CSVInPlaceColumnsTests.referenceRows`), the piece-and-merge path and the serial reader:
/// random CSVs with short and long, quoted, escaped, empty, null, high- and low-cardinality
/// string cells, values longer than a block, CRLF, blank lines and line breaks inside quotes,
/// read with and without dictionary encoding at 1, 2, 3 and 7 workers and several block sizes.
@Suite struct CSVStringsInPlaceTests {
  static func randomCSV(_ random: inout SeededRandom, rows: Int, width: Int) -> String {
    func pick(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }
    let flavours = (0..<width).map { _ in pick(0..<8) }
    var text = (0..<width).map { "s\($0)" }.joined(separator: ",") + "\n"
    for row in 0..<rows {
      var cells: [String] = []
      for column in 0..<width {
        let roll = pick(0..<30)
        if roll == 0 { cells.append(""); continue }
        if roll == 1 { cells.append("NA"); continue }
        if roll == 2 { cells.append("\"\""); continue }  // an empty string, not a null
        switch flavours[column] {
        case 0: cells.append("N\(pick(100..<1_000))\(["UA", "JB", "EV"][pick(0..<3)])")  // high cardinality, short
        case 1: cells.append(["A", "BB", "ccc", "dddd", "é", "x y"][pick(0..<6)])  // low cardinality
        case 2: cells.append("2013-\(pick(10..<13))-\(pick(10..<29)) \(pick(10..<24)):00:00")
        case 3:
          // Quoted: a delimiter, a line break, escaped quotes, CRLF inside.
          cells.append(
            ["\"a,b\"", "\"two\nlines\"", "\"say \"\"hi\"\"\"", "\"\"\"\"", "\"cr\r\nlf\"", "\"\(pick(0..<50_000))\""][
              pick(0..<6)])
        case 4: cells.append(String(repeating: "long\(pick(0..<10))", count: pick(1..<40)))  // 5–200 bytes
        case 5:
          // Mostly short, now and then longer than a small block.
          cells.append(pick(0..<60) == 0 ? String(repeating: "w", count: pick(300..<3_000)) : "v\(pick(0..<200))")
        // text after numbers
        case 6: cells.append(row > rows / 2 && pick(0..<20) == 0 ? "late text" : "\(pick(0..<99))")
        default: cells.append("ü\(row)")  // every cell distinct
        }
      }
      text += cells.joined(separator: ",")
      text += pick(0..<8) == 0 ? "\r\n" : "\n"
      if pick(0..<40) == 0 { text += "\n" }
    }
    return text
  }

  /// The parallel read of `bytes` from a file.
  static func read(_ bytes: [UInt8], workers: Int, block: Int, stringsInPlace: Bool, encodes: Bool) throws -> Table? {
    try CSVInPlaceColumnsTests.readFile(bytes, workers: workers, block: block) { reader in
      reader.strategy.copiesStringsInPlace = stringsInPlace
      reader.strategy.encodesDictionaries = encodes
    }
  }

  static func serial(_ bytes: [UInt8], encodes: Bool) throws -> Table {
    var reader = CSVReader()
    reader.strategy.encodesDictionaries = encodes
    return try bytes.withUnsafeBufferPointer { try reader.parse($0) }
  }

  @Test func inPlaceStringColumnsEqualTheReferenceAndThePieceMerge() throws {
    var random = SeededRandom(seed: 4_518)
    var compared = 0
    for round in 0..<14 {
      let width = Int.random(in: 1..<7, using: &random)
      let bytes = Array(Self.randomCSV(&random, rows: Int.random(in: 50..<1_200, using: &random), width: width).utf8)
      let expected = CSVInPlaceColumnsTests.referenceRows(bytes)
      #expect(expected != nil, "round \(round): the reference read it")
      for encodes in [false, true] {
        let serial = try Self.serial(bytes, encodes: encodes)
        #expect(KindHarness.rows(serial) == expected ?? [], "round \(round): serial reader against the reference")
        for workers in [1, 2, 3, 7] {
          for block in [128, 700, 4_096] {
            let merged = try Self.read(bytes, workers: workers, block: block, stringsInPlace: false, encodes: encodes)
            let table = try Self.read(bytes, workers: workers, block: block, stringsInPlace: true, encodes: encodes)
            let context = "round \(round), \(workers) workers, block \(block), dictionaries \(encodes)"
            #expect(table != nil && merged != nil, "\(context): declined")
            guard let table, let merged else { continue }
            #expect(
              table == merged && table == serial && table.columns.map(\.type) == serial.columns.map(\.type),
              "\(context)")
            #expect(KindHarness.rows(table) == expected ?? [], "\(context)")
            compared += 1
          }
        }
      }
    }
    #expect(compared == 14 * 2 * 4 * 3)
  }

  @Test func aFlatColumnOverManyBlocksKeepsEveryCellAndNull() throws {
    // Distinct strings (flat from the first block), nulls, quoted and escaped cells, one cell
    // longer than the block, a blank line and a quoted line break.
    var text = "id,name,note\n"
    for row in 0..<4_000 {
      let name =
        row % 13 == 0
        ? "NA" : row % 17 == 0 ? "\"\"" : row == 2_224 ? String(repeating: "z", count: 5_000) : "name-\(row)"
      let note = row % 11 == 0 ? "\"q \"\"\(row)\"\"\"" : row == 3_001 ? "\"a\nb\"" : "n\(row % 500)"
      text += "\(row),\(name),\(note)\n"
      if row == 1_500 { text += "\n" }
    }
    let bytes = Array(text.utf8)
    let table = try #require(try Self.read(bytes, workers: 3, block: 1_024, stringsInPlace: true, encodes: false))
    #expect(table.rowCount == 4_000)
    #expect(table.row(0) == [.integer(0), .null, .string("q \"0\"")])
    #expect(table.row(17) == [.integer(17), .string(""), .string("n17")])
    #expect(table.row(2_224) == [.integer(2_224), .string(String(repeating: "z", count: 5_000)), .string("n224")])
    #expect(table.row(3_001) == [.integer(3_001), .string("name-3001"), .string("a\nb")])
    #expect(table.row(3_999) == [.integer(3_999), .string("name-3999"), .string("n499")])
    #expect(table == (try Self.serial(bytes, encodes: false)))
    #expect(table == (try Self.read(bytes, workers: 3, block: 1_024, stringsInPlace: false, encodes: true)))
  }
}
