import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime
import FlowTestSupport

/// The dictionary columns' table of short cells (`UnsafeCSVShortCodes`): columns of repeated
/// cells of 1 to 9 bytes drawn from pools smaller and larger than the table (so slots collide
/// and are replaced), mixed with null tokens, near-tokens and long cells, read in blocks on
/// several workers, equal the serial reader's table; a small pool stays dictionary-encoded.
@Suite struct CSVShortCodesTests {
  static let letters = Array("abcNAnulNaN/xyz".utf8)

  static func csv(rows: Int, pool: [String], _ random: inout SeededRandom) -> [UInt8] {
    var text = "id,s,t\n"
    for row in 0..<rows {
      let s = pool[Int.random(in: 0..<pool.count, using: &random)],
        t = pool[Int.random(in: 0..<pool.count, using: &random)]
      text += "\(row),\(s),\(t)\n"
    }
    return Array(text.utf8)
  }

  @Test func shortCellsReadLikeTheSerialReader() throws {
    var random = SeededRandom(seed: 7_007)
    var encoded = 0, compared = 0
    for round in 0..<9 {
      let size = [12, 160, 400][round % 3]
      var pool: [String] = (0..<size).map { index in
        let length = 1 + index % 9
        return String(
          decoding: (0..<length).map { _ in Self.letters[Int.random(in: 0..<Self.letters.count, using: &random)] },
          as: UTF8.self)
      }
      pool += CSVReader.defaultNullValues + ["N", "nul", "NAN", "na", "a cell longer than eight bytes"]
      let bytes = Self.csv(rows: Int.random(in: 2_000..<6_000, using: &random), pool: pool, &random)
      let serial = try bytes.withUnsafeBufferPointer { try CSVReader().parse($0) }
      for workers in [1, 2, 3] {
        for block in [1_024, 16_384] {
          let table = try #require(
            try CSVInPlaceColumnsTests.readFile(bytes, workers: workers, block: block) {
              $0.firstBlockBytesPerWorker = 512
            })
          #expect(table == serial, "round \(round), pool \(size), \(workers) workers, block \(block)")
          #expect(
            KindHarness.rows(table) == KindHarness.rows(serial),
            "round \(round), pool \(size), \(workers) workers, block \(block)")
          if table.column(named: "s")!.isDictionaryEncoded { encoded += 1 }
          compared += 1
        }
      }
    }
    #expect(compared == 54 && encoded >= 6, "compared \(compared), dictionary-encoded \(encoded)")
  }
}
