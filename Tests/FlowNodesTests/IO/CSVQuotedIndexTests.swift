import Foundation
import FlowRuntime
import FlowTestSupport
import Testing
@testable import FlowNodes
import FlowNodesTestSupport

/// Quoted fields on the structural index (`UnsafeCSVPlainIndex`) and the runs it gives: over
/// random chunks in which most cells are quoted (with delimiters, `""` escapes, LF, CR and CRLF
/// inside, empty quoted cells beside empty unquoted ones, quotes on every offset of a 64-byte
/// block), the record source gives exactly the scanner's records (fields, quoting, escapes,
/// widths) and fails exactly where the scanner fails; and whole files read by every path
/// (`CSVDifferentialRead`) give the serial reader's table.
@Suite struct CSVQuotedIndexTests {
  /// Quoted cells of every pattern, and plain ones.
  static let quotedCells: [String] = [
    "\"a,b\"", "\"x\"\"y\"", "\"line\nbreak\"", "\"cr\rinside\"", "\"crlf\r\ninside\"", "\"\"", "\"\"\"\"",
    "\"ends with a quote\"\"\"", "\"\"\"starts with one\"", "\"plain quoted text\"", "\"7\"", "\"-12.5\"", "\"NA\"",
    "\"two,\"\"\"\",commas,\n\"", "\"" + String(repeating: "long quoted, cell ", count: 7) + "\""
  ]
  static let plainCells: [String] = [
    "2013", "7", "", "NA", "-12.5", "N342JB", "x y\t!#", String(repeating: "abcdefghij", count: 9)
  ]
  /// Cells that send a record to the scanner (a stray quote, text after a closing quote).
  static let oddCells: [String] = ["a\"b", "\"q\"tail", "\"q\" ", " \"q\""]

  /// Random records of `width` fields, quoted in proportion `quoted` of 8, with an odd cell,
  /// a ragged row or a CRLF ending about once in `oddity` records (never if 0), and an
  /// unterminated quoted field at the end now and then.
  static func chunk(_ random: inout SeededRandom, width: Int, records: Int, quoted: Int, oddity: Int) -> [UInt8] {
    var text = ""
    for _ in 0..<records {
      var cells = width
      if oddity > 0 && Int.random(in: 0..<(oddity * 2), using: &random) == 0 {
        cells += [-1, 1][Int.random(in: 0..<2, using: &random)]
      }
      for cell in 0..<Swift.max(cells, 1) {
        if cell > 0 { text += "," }
        if oddity > 0 && Int.random(in: 0..<(oddity * width), using: &random) == 0 {
          text += oddCells.randomElement(using: &random)!
        } else if Int.random(in: 0..<8, using: &random) < quoted {
          text += quotedCells.randomElement(using: &random)!
        } else {
          text += plainCells.randomElement(using: &random)!
        }
      }
      if oddity > 0 && Int.random(in: 0..<(oddity * 2), using: &random) == 0 {
        text += ["\r\n", "\n\n"].randomElement(using: &random)!
      } else {
        text += "\n"
      }
    }
    switch Int.random(in: 0..<6, using: &random) {
    case 0: if text.last == "\n" { text.removeLast() }
    case 1: text += "1,\"unclosed"
    default: break
    }
    return Array(text.utf8)
  }

  @Test(arguments: 0..<8)
  func quotedChunksGiveTheScannersRecords(seed: Int) {
    var random = SeededRandom(seed: 9_100 + UInt64(seed))
    var compared = 0, indexed = 0
    for round in 0..<40 {
      let width = Int.random(in: 1...9, using: &random)
      let records = round % 8 == 0 ? Int.random(in: 300...900, using: &random) : Int.random(in: 0...60, using: &random)
      let quoted = [8, 4, 1, 6][round % 4]
      let oddity = [0, 0, 30, 5][(round / 4) % 4]
      let bytes = Self.chunk(&random, width: width, records: records, quoted: quoted, oddity: oddity)
      let most = [1, 3, .max][round % 3]
      for skipFrom in [Int.max, 1] {
        let expected = CSVPlainIndexTests.records(
          bytes, delimiter: 0x2C, width: width, indexes: false, skipFrom: skipFrom)
        let actual = CSVPlainIndexTests.records(
          bytes, delimiter: 0x2C, width: width, indexes: true, skipFrom: skipFrom, most: most)
        #expect(actual.failed == expected.failed, "seed \(seed) round \(round)")
        #expect(actual.records == expected.records, "seed \(seed) round \(round) width \(width)")
        compared += expected.records.count
        indexed += actual.indexed
      }
    }
    // Quoted records come from the index, not the scanner.
    #expect(compared > 2_000 && indexed * 10 > compared * 7, "\(indexed) of \(compared)")
  }

  @Test func quotesOnEveryOffsetOfABlock() {
    // A quoted cell (with a delimiter, an escape, a line feed and a CRLF inside) shifted one byte
    // at a time, so its opening quote, escapes and closing quote fall on every offset of the
    // 64-byte blocks and across their ends; records before and after it plain.
    let cells = [
      "\"a,b\"", "\"x\"\"y\"", "\"\"", "\"\"\"\"", "\"l\nf\"", "\"c\r\nr\"",
      "\"" + String(repeating: "q", count: 70) + "\"\"\""
    ]
    var checked = 0
    for cell in cells {
      for shift in 0..<140 {
        let text = String(repeating: "p", count: shift) + ",1\n2," + cell + "\n" + cell + ",3\n" + "4,5\n"
        let bytes = Array(text.utf8)
        let expected = CSVPlainIndexTests.records(bytes, delimiter: 0x2C, width: 2, indexes: false)
        let actual = CSVPlainIndexTests.records(bytes, delimiter: 0x2C, width: 2, indexes: true, most: .max)
        #expect(!expected.failed && actual.records == expected.records, "\(cell) shifted \(shift)")
        #expect(actual.indexed == 4, "\(cell) shifted \(shift): \(actual.indexed) records from the index")
        checked += 1
      }
    }
    #expect(checked == cells.count * 140)
  }

  @Test func runsGiveQuotedCellsBetweenTheirQuotes() {
    // `UnsafeCSVRecordRun.field` of a quoted cell: its content, quoted, escaped only with `""`;
    // an empty unquoted cell is not quoted (a null where empty cells are), `""` is.
    let bytes = Array("\"a,b\",,\"\"\n\"x\"\"y\",\"\n\",z\n".utf8)
    bytes.withUnsafeBufferPointer { buffer in
      var source = UnsafeCSVRecordSource(buffer, delimiter: 0x2C, width: 3, indexes: true)
      var fields = UnsafeCSVFieldBuffer(capacity: 64)
      defer {
        fields.deallocate()
        source.deallocate()
      }
      guard case .run(let run)? = try? source.nextBatch(into: &fields, skipFrom: .max, most: .max) else {
        Issue.record("no run")
        return
      }
      #expect(run.count == 2)
      let cells = (0..<2).flatMap { record in (0..<3).map { run.field(record, $0) } }
      #expect(
        cells.map { String(decoding: buffer[$0.start..<$0.end], as: UTF8.self) } == ["a,b", "", "", "x\"\"y", "\n", "z"]
      )
      #expect(cells.map(\.quoted) == [true, false, true, true, true, false])
      #expect(cells.map(\.escaped) == [false, false, false, true, false, false])
    }
  }

  /// A file of `rows` records with an integer, a quoted text column (some cells with `""`, a
  /// line break, empty `""`), a low-cardinality quoted column, a number, and an unquoted text
  /// column with empty (null) cells.
  static func quotedFile(_ random: inout SeededRandom, rows: Int) -> [UInt8] {
    var text = "id,comment,mode,price,note\n"
    for row in 0..<rows {
      let comment: String
      switch Int.random(in: 0..<20, using: &random) {
      case 0: comment = "\"say \"\"hi\"\" \(row)\""
      case 1: comment = "\"two\nlines \(row)\""
      case 2: comment = "\"\""
      case 3: comment = "\"crlf\r\n\(row)\""
      default: comment = "\"comment, \(row * 7_919 % 10_007) words\""
      }
      let mode = ["\"AIR\"", "\"MAIL\"", "\"SHIP\"", "\"TRUCK\""][row % 4]
      let note = row % 9 == 0 ? "" : "n\(row % 13)"
      text += "\(row),\(comment),\(mode),\(Double(row % 1_000) / 8),\(note)\n"
    }
    return Array(text.utf8)
  }

  @Test(arguments: 0..<6)
  func quotedFilesReadLikeTheSerialReader(seed: Int) throws {
    let folder = try CSVDifferentialRead.ScratchFolder()
    defer { folder.remove() }
    var random = SeededRandom(seed: 77 + UInt64(seed))
    var compared = 0
    for round in 0..<4 {
      let bytes = Self.quotedFile(&random, rows: Int.random(in: 50...600, using: &random))
      let verdict = CSVDifferentialRead.check(bytes, seed: random.next(), folder: folder)
      #expect(verdict.difference == nil, "seed \(seed) round \(round): \(verdict.difference ?? "")")
      #expect(verdict.referenceReadsTable)
      compared += verdict.comparedReads
    }
    #expect(compared > 0, "no parallel read compared")
  }

  @Test func quotedColumnsKeepTheUnquotedColumnsRepresentation() throws {
    // The same rows with the text columns quoted (as tpchgen-cli writes comments) and not: equal
    // tables, and the same columns dictionary-encoded, at 1 and 2 workers and two block sizes.
    var plain = "id,flag,comment,price\n", quoted = plain
    for row in 0..<3_000 {
      let flag = ["A", "N", "R"][row % 3], comment = "words \(row * 7_919 % 10_007) more"
      plain += "\(row),\(flag),\(comment),\(Double(row % 400) / 4)\n"
      quoted += "\(row),\"\(flag)\",\"\(comment)\",\(Double(row % 400) / 4)\n"
    }
    for workers in [1, 2] {
      for block in [2_048, 16_384] {
        let expected = try #require(
          try CSVInPlaceColumnsTests.readFile(Array(plain.utf8), workers: workers, block: block) { _ in })
        let table = try #require(
          try CSVInPlaceColumnsTests.readFile(Array(quoted.utf8), workers: workers, block: block) { _ in })
        #expect(table == expected, "\(workers) workers, block \(block)")
        #expect(
          table.columns.map(\.isDictionaryEncoded) == expected.columns.map(\.isDictionaryEncoded),
          "\(workers) workers, block \(block)")
        #expect(table.columns.map(\.type) == expected.columns.map(\.type))
      }
    }
  }
}
