import FlowTestSupport
import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// A record longer than the chunks a block is cut into (one huge quoted field, with quotes and
/// line feeds inside) among short records: every worker count and block size reads the same
/// table. The cut searches skip what an earlier search already passed, so this also checks
/// that no record end is missed after a long one.
@Suite struct CSVLongRecordCutTests {
  static func csv(longBytes: Int) -> String {
    var text = "id,s\n"
    for row in 0..<40 { text += "\(row),short \(row)\n" }
    let long = String(repeating: "x", count: longBytes / 2) + "\"\"\n,;" + String(repeating: "y", count: longBytes / 2)
    text += "40,\"\(long)\"\n"
    for row in 41..<80 { text += "\(row),\"q \(row)\"\n" }
    return text
  }

  @Test(arguments: [(1, 1 << 16), (4, 4_096), (64, 4_096), (64, 1 << 20)])
  func aLongFieldAmongShortRecordsReadsTheSameWithAnyCuts(workers: Int, block: Int) throws {
    let text = Self.csv(longBytes: 300_000)
    let table = try #require(
      try CSVInPlaceColumnsTests.readFile(Array(text.utf8), workers: workers, block: block) { _ in })
    #expect(table.rowCount == 80)
    let strings = try #require(table.column(named: "s"))
    #expect(
      strings[40].text.utf8.count == 300_000 + 4,
      "the long field: its \"\" collapsed, its line feed, comma and semicolon kept")
    #expect(strings[39].text == "short 39" && strings[41].text == "q 41" && strings[79].text == "q 79")
  }
}
