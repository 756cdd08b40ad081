import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// A file cut short while its morsels are read is an error, never a torn last row taken as data.
@Suite struct CSVMorselShrinkTests {
  @Test func aFileTruncatedMidReadIsAnErrorNotATornRow() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("csv-shrink-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var csv = "k,x\n"
    for row in 0..<2_000 { csv += "\(row % 7),\(1_000_000 + row)\n" }
    try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/data.csv"))
    let policy = FileAccessPolicy(readableRoots: [folder], writableRoots: [])
    let file = try policy.open("data.csv", relativeTo: folder)
    var seen: [Int64] = []
    let error = #expect(throws: NodeError.self) {
      _ = try CSVMorsels.read(file, reader: CSVReader(), morselBytes: 1_024) { morsel in
        if seen.isEmpty { _ = truncate(folder + "/data.csv", off_t(csv.utf8.count / 2 + 3)) }  // mid-row
        for row in 0..<morsel.rowCount { if case .integer(let x) = morsel.columns[1][row] { seen.append(x) } }
      }
    }
    #expect(
      error?.description.contains("data.csv changed size while it was read") == true, "\(String(describing: error))")
    #expect(seen.allSatisfy { $0 >= 1_000_000 }, "no torn row read: \(seen.filter { $0 < 1_000_000 })")
  }
}
