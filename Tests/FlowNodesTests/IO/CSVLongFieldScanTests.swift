import FlowTestSupport
import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// One field far longer than the block: the block reader tries the same block start again after
/// each doubling of its buffer, and each try searches only the bytes the last one did not
/// (`CSVRecordEndHint`), so the bytes searched and parsed grow linearly with the field, on the
/// whole-file read and on the morsel read (counted by `CSVReadStatistics`, not timed).
@Suite struct CSVLongFieldScanTests {
  /// A short record, one quoted field of `fieldBytes` bytes (with `""` and, if `lines`, line
  /// feeds inside), a short record.
  static func csv(fieldBytes: Int, lines: Bool) -> [UInt8] {
    let piece = lines ? "abc\"\"d\nef," : "abc\"\"defg,"
    let field = String(repeating: piece, count: fieldBytes / piece.utf8.count)
    return Array("id,s\n1,short\n2,\"\(field)\"\n3,end\n".utf8)
  }

  @Test(arguments: [false, true]) func aLongFieldIsSearchedAndParsedAboutOnce(lines: Bool) throws {
    for size in [32 << 10, 256 << 10, 1 << 20] {
      let bytes = Self.csv(fieldBytes: size, lines: lines)
      let statistics = CSVReadStatistics()
      let table = try #require(
        try CSVInPlaceColumnsTests.readFile(bytes, workers: 2, block: 512) { $0.statistics = statistics })
      #expect(table.rowCount == 3 && table.column(named: "s")?[2].text == "end", "\(size) bytes")
      #expect(
        table.column(named: "s").map { $0[1].text.utf8.count } == size / 10 * 9,
        "\(size) bytes: the field, its \"\" collapsed")
      // Doubling from 1 KiB: one try per doubling, every try searching only its new bytes.
      #expect(
        statistics.blockTriesWithoutRecordEnd >= 5, "\(size) bytes: \(statistics.blockTriesWithoutRecordEnd) tries")
      #expect(statistics.searchedBytes <= 3 * bytes.count, "\(size) bytes: searched \(statistics.searchedBytes)")
      #expect(statistics.parsedBytes <= bytes.count + 4_096, "\(size) bytes: parsed \(statistics.parsedBytes)")
    }
  }

  @Test func theMorselReaderSearchesALongFieldOnce() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for lines in [false, true] {
      let bytes = Self.csv(fieldBytes: 1 << 20, lines: lines)
      try Data(bytes).write(to: URL(fileURLWithPath: folder + "/t.csv"))
      let file = try FileAccessPolicy.unrestricted.open(folder + "/t.csv", relativeTo: folder)
      var reader = CSVReader()
      reader.workers = 2
      reader.minimumChunkBytes = 1
      reader.statistics = CSVReadStatistics()
      var rows = 0
      _ = try CSVMorsels.read(file, reader: reader, morselBytes: 1_024) { rows += $0.rowCount }
      let statistics = try #require(reader.statistics)
      #expect(rows == 3, "lines \(lines)")
      #expect(
        statistics.searchedBytes <= 3 * bytes.count && statistics.parsedBytes <= bytes.count + 4_096,
        "lines \(lines): searched \(statistics.searchedBytes), parsed \(statistics.parsedBytes) of \(bytes.count)")
    }
  }
}
