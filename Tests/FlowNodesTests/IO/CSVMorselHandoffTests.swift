import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `CSVMorsels.read` parses one morsel ahead on a thread of its own (`CSVMorselHandoff`): the
/// caller still sees every morsel in file order, equal to the same rows of the whole read, at
/// any worker count; a caller that fails mid-read stops the producer and gets its own error.
@Suite struct CSVMorselHandoffTests {
  static func file(rows: Int) throws -> (folder: String, file: CheckedFile, csv: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("csv-handoff-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var csv = "k,x,s\n"
    for row in 0..<rows { csv += "\(row % 7),\(row),\(row % 3 == 0 ? "" : "w\(row % 11)")\n" }
    try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/data.csv"))
    let policy = FileAccessPolicy(readableRoots: [folder], writableRoots: [])
    return (folder, try policy.open("data.csv", relativeTo: folder), csv)
  }

  @Test func morselsComeInFileOrderAndEqualTheWholeRead() throws {
    let (folder, _, csv) = try Self.file(rows: 3_000)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let whole = try Array(csv.utf8).withUnsafeBufferPointer { try CSVReader().parse($0) }
    for workers in [1, 2, 7] {
      for morselBytes in [512, 4_096, 1 << 20] {
        let file = try FileAccessPolicy(readableRoots: [folder], writableRoots: []).open("data.csv", relativeTo: folder)
        var reader = CSVReader()
        reader.workers = workers
        var morsels: [Table] = []
        let rows = try CSVMorsels.read(file, reader: reader, morselBytes: morselBytes) { morsels.append($0) }
        #expect(rows == 3_000, "\(workers) workers, \(morselBytes) bytes")
        #expect(morselBytes > 4_096 || morsels.count > 1, "\(morselBytes) bytes: \(morsels.count) morsels")
        var start = 0
        for morsel in morsels {
          #expect(
            morsel == whole.slice(start..<start + morsel.rowCount),
            "\(workers) workers, \(morselBytes) bytes, row \(start)")
          start += morsel.rowCount
        }
        #expect(start == whole.rowCount)
      }
    }
  }

  struct Stop: Error {}

  /// The producer may be blocked handing on the next morsel: the stop wakes it, the read
  /// returns the caller's error, and nothing is left running (repeated, at every point).
  @Test func aCallerFailingMidReadStopsTheProducer() throws {
    let (folder, _, _) = try Self.file(rows: 2_000)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for failAt in 0..<12 {
      let file = try FileAccessPolicy(readableRoots: [folder], writableRoots: []).open("data.csv", relativeTo: folder)
      var seen = 0
      #expect(throws: Stop.self) {
        _ = try CSVMorsels.read(file, reader: CSVReader(), morselBytes: 1_024) { _ in
          if seen == failAt { throw Stop() }
          seen += 1
        }
      }
      #expect(seen == failAt)
    }
  }

  @Test func aProducerFailureReachesTheCaller() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("csv-handoff-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var csv = "k,x\n"
    for row in 0..<2_000 { csv += row == 1_500 ? "1,2,3\n" : "\(row % 5),\(row)\n" }  // a ragged row late
    try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/data.csv"))
    let file = try FileAccessPolicy(readableRoots: [folder], writableRoots: []).open("data.csv", relativeTo: folder)
    var rows = 0
    #expect(throws: CSVMorsels.Fallback.self) {
      _ = try CSVMorsels.read(file, reader: CSVReader(), morselBytes: 1_024) { rows += $0.rowCount }
    }
    #expect(rows > 0 && rows < 1_500, "the morsels before the ragged row: \(rows)")
  }
}
