import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime
import FlowTestSupport

/// A projected read counts the fields after the last column it keeps without storing them
/// (and scans the others eight bytes at a time): the same table as reading every column and
/// selecting, or the same error — with quotes, escapes, line breaks, spaces, long cells, CRLF,
/// stray quotes and ragged rows in the fields it skips.
extension ParallelCSVReaderTests {
  /// A CSV whose cells are often longer than a word, with spaces and other low bytes (`!`, a
  /// tab) a word test stops at, quoted cells (delimiters, escapes, line breaks), nulls and CRLF.
  static func wideCSV(_ random: inout SeededRandom, rows: Int, width: Int) -> String {
    let cells = [
      "TAKE BACK RETURN", "carefully! final\tdeposits", "    ", "ünïcödé text over eight bytes", "1998-09-02",
      "12345.67", "-3", "\"a,b\"", "\"say \"\"hi\"\" twice\"", "\"two\nlines\"", "", "NA", "x"
    ]
    var text = (0..<width).map { "c\($0)" }.joined(separator: ",") + "\n"
    for _ in 0..<rows {
      text += (0..<width).map { _ in cells[Int.random(in: 0..<cells.count, using: &random)] }.joined(separator: ",")
      text += Int.random(in: 0..<8, using: &random) == 0 ? "\r\n" : "\n"
    }
    return text
  }

  @Test func projectedReadEqualsTheWholeReadSelected() throws {
    var random = SeededRandom(seed: 19)
    var compared = 0, failures = 0
    for round in 0..<80 {
      let width = Int.random(in: 1..<7, using: &random)
      let rows = Int.random(in: 0..<200, using: &random)
      var text =
        round % 2 == 0
        ? Self.wideCSV(&random, rows: rows, width: width) : Self.randomCSV(&random, rows: rows, width: width)
      if round % 8 == 7 { text = text.replacingOccurrences(of: "x", with: "a\"b") }  // stray quotes
      // a ragged row
      if round % 6 == 5 { text += "1" + String(repeating: ",1", count: round % 4 == 1 ? 0 : width + 1) + "\n" }
      if round % 5 == 4 && text.hasSuffix("\n") { text.removeLast() }  // no final line break
      let bytes = Array(text.utf8)
      let whole = Self.serial(bytes, columns: nil)
      let names = (0..<width).map { "c\($0)" }
      let projection = Set(names.filter { _ in Int.random(in: 0..<2, using: &random) == 0 })
      let projected = Self.serial(bytes, columns: projection)
      switch whole {
      case .success(let table):
        let kept = table.columnNames.indices.filter { projection.contains(table.columnNames[$0]) }
        let expected = try table.selecting(kept)
        #expect(Self.same(projected, .success(expected)), "round \(round): \(projection.sorted())")
      case .failure:
        failures += 1
        #expect(Self.same(projected, whole), "round \(round): \(projected) against \(whole)")
      }
      for workers in [2, 7] {
        var declined = 0
        let parallel = Self.parallel(
          bytes, columns: projection, workers: workers, block: 256, file: nil, declined: &declined)
        #expect(Self.same(parallel, projected), "round \(round), \(workers) workers")
      }
      compared += 1
    }
    #expect(compared == 80 && failures > 0)
  }
}
