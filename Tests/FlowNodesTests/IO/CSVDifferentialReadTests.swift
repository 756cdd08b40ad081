import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime
import FlowTestSupport
import FlowNodesTestSupport

/// The differential read (`CSVDifferentialRead`, the `csv` fuzz target's property): the serial,
/// parallel (memory and file, 1, 2 and 7 workers, tiny blocks) and morsel reads agree on seed
/// texts like the fuzz corpus's (numbers near 2^53 and 2^63, widening and conflicting columns,
/// null tokens, RFC 4180 quoting, CRLF and lone CR, a BOM, ragged rows, bad bytes, duplicate
/// names, other delimiters) read with several seeds, and on seeded mutations of them; and the
/// comparison reports a difference where there is one.
@Suite struct CSVDifferentialReadTests {
  /// Seed texts, each a case the readers must agree on (built here: tests carry their data),
  /// that the parallel reads read (with some of the options a seed picks).
  static let parallelSeeds: [[UInt8]] = {
    let texts: [String] = [
      "id,x,y\n" + (0..<60).map { "\($0),\($0 * 37 % 101 - 50),\(Double($0) / 4)" }.joined(separator: "\n") + "\n",
      "n,big\n1,9007199254740993\n2,9223372036854775807\n3,-9223372036854775808\n4,9223372036854775808\n"
        + "5,12345678901234567890123\n6,-0\n7,1e3\n8,.5\n9,1.7976931348623157e308\n10,1e400\n",
      "k,w\n" + (0..<50).map { "\($0),\($0)" }.joined(separator: "\n") + "\n50,2.5\n51,true\n",
      "flag,s\ntrue,a\nfalse,b\nTRUE,\nNA,null\nfalse,N/A\n",
      "carrier,origin,delay\n"
        + (0..<80).map { "\(["AA", "UA", "DL", "B6"][$0 % 4]),\(["JFK", "LAX", "ORD"][$0 % 3]),\($0 % 17)" }
        .joined(separator: "\n") + "\n",
      "id,word\n" + (0..<120).map { "\($0),w\($0 * 7_919 % 1_000)x\($0)" }.joined(separator: "\n") + "\n",
      "n,v\n" + (0..<40).map { "\($0),\($0 % 9)" }.joined(separator: "\n") + "\n40,late text\n41,3\n",
      "a,b,c\n,NA,N/A\nNaN,null,\"\"\n\"NA\",-, NA \n1,2,3\n",
      "name,quote\n\"Smith, John\",\"He said \"\"hi\"\"\"\n\"two\nlines\",x\n\"\"\"\",\"a\r\nb\"\n",
      "a,b\r\n1,2\r\n3,4\r5,6\r\n\r\n7,8",
      "\u{FEFF}id,name\n1,Zürich\n2,a😀b\n",
      "\n\na,b\n\n1,2\n\n\n3,4\n\n",
      "a,b\n" + (0..<30).map { "\($0),\($0)" }.joined(separator: "\n") + "\n1,2,3\n4,5\n",
      "only,a,header\n",
      "x,y\n1,2\n3,\"4\n5\"",
      "id,text\n1," + String(repeating: "abcdefghij", count: 200)
        + "\n2,\"" + String(repeating: "q,\"\"\n", count: 40) + "\"\n",
      "v\n" + (0..<40).map { "\($0 * 11)" }.joined(separator: "\n") + "\n\nNA\n12.5\n",
      "a,b,a\n1,2,3\n",
      "id;name;value\n" + (0..<30).map { "\($0);item \($0);\(Double($0) * 1.5)" }.joined(separator: "\n") + "\n",
      "a\tb|c\n" + (0..<20).map { "\($0)\t\($0 % 3)|z\($0 % 4)" }.joined(separator: "\n") + "\n",
      "id,q,late\n" + (0..<90).map { "\($0),\"\($0 % 50)\",\($0 < 80 ? "NA" : "word")" }.joined(separator: "\n") + "\n"
    ]
    var bytes = texts.map { Array($0.utf8) }
    bytes.append(Array("a,b\n\u{FF},1\n".utf8) + [0xC3, 0x28, 0x2C, 0x32, 0x0A, 0xED, 0xA0, 0x80, 0x2C, 0x33, 0x0A])
    bytes.append(Array("a,b,c\n1,".utf8) + [0] + Array(",2\n".utf8) + [0, 0] + Array(",3,4\n7,8,9".utf8) + [0, 0x0A])
    return bytes
  }()

  /// Seed texts every parallel read leaves to the serial one (a ragged row, a stray quote, nothing).
  static let serialSeeds: [[UInt8]] = ["a,b,c\n1,2,3\n4,5\n6,7,8\n", "a,b\n1,ab\"c\n2,d\n3,\"e\"f\n", ""]
    .map { Array($0.utf8) }

  static let seeds = parallelSeeds + serialSeeds

  @Test(arguments: seeds.indices)
  func everyReadOfASeedTextAgrees(index: Int) throws {
    let folder = try CSVDifferentialRead.ScratchFolder()
    defer { folder.remove() }
    var compared = 0
    for seed in UInt64(0)..<8 {
      let mixed = seed &* 1_000_003 &+ UInt64(index)
      let verdict = CSVDifferentialRead.check(Self.seeds[index], seed: mixed, folder: folder)
      #expect(verdict.difference == nil, "seed text \(index), seed \(seed): \(verdict.difference ?? "")")
      compared += verdict.comparedReads
    }
    #expect(index >= Self.parallelSeeds.count || compared > 0, "seed text \(index): no parallel read compared")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "the input files are unlinked")
  }

  @Test func everyReadOfMutatedSeedTextsAgrees() throws {
    let folder = try CSVDifferentialRead.ScratchFolder()
    defer { folder.remove() }
    var random = SeededRandom(seed: 4_242)
    var accepted = 0, compared = 0
    for round in 0..<300 {
      var bytes = Self.seeds[Int.random(in: 0..<Self.seeds.count, using: &random)]
      for _ in 0..<Int.random(in: 1...4, using: &random) { Self.mutate(&bytes, &random) }
      let verdict = CSVDifferentialRead.check(bytes, seed: random.next(), folder: folder)
      #expect(verdict.difference == nil, "round \(round): \(verdict.difference ?? "") on \(Array(bytes.prefix(200)))")
      if verdict.referenceReadsTable { accepted += 1 }
      if verdict.comparedReads > 0 { compared += 1 }
    }
    #expect(accepted > 100 && accepted < 300, "both tables and errors: \(accepted) of 300 read")
    #expect(compared > 60, "inputs the parallel reads compared: \(compared) of 300")
  }

  @Test func aDifferentCellIsReportedWithItsColumnAndRow() throws {
    let reference = try Table([("a", .integers([1, 2, 3])), ("b", .strings(["x", "y", "z"]))])
    let changed = try Table([("a", .integers([1, 2, 3])), ("b", .strings(["x", "y!", "z"]))])
    let found = try #require(CSVDifferentialRead.difference(.success(reference), .success(changed)))
    #expect(found.contains("'b'") && found.contains("row 1"), "\(found)")
    #expect(CSVDifferentialRead.difference(.success(reference), .success(reference)) == nil)
  }

  @Test func differentTypesNamesRowsAndErrorsAreReported() throws {
    let integers = try Table([("a", .integers([1, 2]))])
    let numbers = try Table([("a", .numbers([1, 2]))])
    let renamed = try Table([("c", .integers([1, 2]))])
    let longer = try Table([("a", .integers([1, 2, 3]))])
    let nulls = try Table([("a", .integers([1, nil]))])
    let failure = CSVDifferentialRead.ReadFailure("line 3: 2 fields, expected 3 (ragged row)")
    let reported: [(CSVDifferentialRead.Outcome, String)] = [
      (.success(numbers), "integer vs number"), (.success(renamed), "column names"), (.success(longer), "2 rows vs 3"),
      (.success(nulls), "row 1"), (.failure(failure), "this read failed")
    ]
    for (actual, expected) in reported {
      let found = CSVDifferentialRead.difference(.success(integers), actual)
      #expect(found?.contains(expected) == true, "\(expected): \(found ?? "nil")")
    }
    let other = CSVDifferentialRead.ReadFailure("line 2: 1 field, expected 3 (ragged row)")
    #expect(CSVDifferentialRead.difference(.failure(failure), .failure(other))?.contains("error") == true)
    #expect(CSVDifferentialRead.difference(.failure(failure), .failure(failure)) == nil)
    #expect(CSVDifferentialRead.difference(.failure(failure), .success(integers))?.contains("reference failed") == true)
  }

  /// A header that repeats a name fails the same way on every path, before any record: with a
  /// ragged row after rows that a first morsel holds, the error is the name's, not the row's
  /// (the whole reads reported the ragged row before the readers checked the header).
  @Test func aRepeatedHeaderNameFailsFirstOnEveryPath() throws {
    let text = Array(("a,b,a\n" + (0..<200).map { "\($0),\($0),\($0)" }.joined(separator: "\n") + "\n1,2\n").utf8)
    let folder = try CSVDifferentialRead.ScratchFolder()
    defer { folder.remove() }
    let file = try folder.file(holding: text)
    var reader = CSVReader()
    reader.parallelThreshold = 0
    reader.minimumChunkBytes = 1
    reader.blockBytesPerWorker = 256
    reader.workers = 2
    func failure(_ body: () throws -> Any?) -> String? {
      do { _ = try body(); return nil } catch { return "\(error)" }
    }
    let expected = "duplicate column 'a'"
    #expect(failure { try text.withUnsafeBufferPointer { try reader.parse($0) } } == expected)
    #expect(
      failure { try text.withUnsafeBufferPointer { try UnsafeCSVBlockReader(reader: reader).read($0) } } == expected)
    #expect(failure { try UnsafeCSVBlockReader(reader: reader).read(file) } == expected)
    var morsels = 0
    #expect(failure { try CSVMorsels.read(file, reader: reader, morselBytes: 256) { _ in morsels += 1 } } == expected)
    #expect(morsels == 0)
    // The check compares a morsel read's error with the reference's (it no longer skips it).
    for seed: UInt64 in 1...8 {
      #expect(CSVDifferentialRead.check(text, seed: seed, folder: folder).difference == nil, "seed \(seed)")
    }
  }

  /// The bytes planted or inserted by `mutate`: CSV syntax, null and number pieces, bad UTF-8.
  static let tokens: [[UInt8]] =
    [
      "\"", ",", "\n", "\r\n", "\r", ";", "\t", "NA", "", "9223372036854775808", "-0",
      "1e999", "9007199254740993", "true", "\"\"", "x\"y", "\u{FEFF}"
    ].map { Array($0.utf8) }
    + [[0], [0xFF], [0xC3]]

  /// One mutation of `bytes`: a bit flip, a token inserted, a range deleted or duplicated.
  static func mutate(_ bytes: inout [UInt8], _ random: inout SeededRandom) {
    let at = Int.random(in: 0...bytes.count, using: &random)
    switch Int.random(in: 0..<4, using: &random) {
    case 0 where !bytes.isEmpty:
      bytes[Swift.min(at, bytes.count - 1)] ^= 1 << UInt8.random(in: 0..<8, using: &random)
    case 1 where at < bytes.count:
      bytes.removeSubrange(at..<Swift.min(bytes.count, at + Int.random(in: 1...12, using: &random)))
    case 2 where at < bytes.count:
      let piece = bytes[at..<Swift.min(bytes.count, at + Int.random(in: 1...80, using: &random))]
      bytes.insert(contentsOf: piece, at: Int.random(in: 0...bytes.count, using: &random))
    default:
      bytes.insert(contentsOf: tokens[Int.random(in: 0..<tokens.count, using: &random)], at: at)
    }
  }
}
