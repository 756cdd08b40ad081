import FlowCommandLine
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing

/// `flow run` streaming chains that start at `readParquet`, one morsel per row group, against
/// `--no-streaming`: random pipelines over random tables written as Parquet in row groups of
/// a few rows give the same output bytes, written files and `--report` sets, on 1, 2 or 5
/// threads.
@Suite struct StreamingParquetRunTests {
  /// Writes `data.csv` as `data.parquet` in row groups of `rowGroupRows` rows.
  static func convert(_ folder: URL, rowGroupRows: Int) async throws {
    let document =
      #"{"nodes": [{"id": "r", "data": {"kind": "readCSV", "params": {"path": "data.csv"}}},"#
      + #"{"id": "w", "data": {"kind": "writeParquet", "params": {"path": "data.parquet", "rowGroupRows": \#(rowGroupRows)}}}],"#
      + #""edges": ["r -> w"]}"#
    let path = folder.appendingPathComponent("convert.flow.json")
    try Data(document.utf8).write(to: path)
    let result = await FlowCommandLine.runInProcess(["run", path.path], registry: NodeKindRegistry.standard)
    try #require(result.status == 0, "\(result.output) \(result.diagnostics)")
  }

  /// `StreamingRunTests.document`, its reader `readParquet` of data.parquet.
  static func document(_ stages: [(String, String)]) -> String {
    StreamingRunTests.document(stages).replacingOccurrences(
      of: #""kind": "readCSV", "params": {"path": "data.csv"}"#,
      with: #""kind": "readParquet", "params": {"path": "data.parquet"}"#)
  }

  @Test func randomParquetPipelinesStreamAsTheyRunMaterialized() async throws {
    var streamedCases = 0
    let cases = 30
    for seed in 0..<UInt64(cases) {
      var random = SeededRandom(seed: seed &* 104_729 &+ 11)
      let folder = try StreamingRunTests.folder()
      defer { try? FileManager.default.removeItem(at: folder) }
      var stages: [(String, String)] = []
      for number in 0..<Int.random(in: 1...3, using: &random) {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: stages.append(StreamingRunTests.filter(&random))
        case 1: stages.append(StreamingRunTests.derive(&random, number))
        default: stages.append(StreamingRunTests.select(&random))
        }
      }
      switch Int.random(in: 0..<3, using: &random) {
      case 0: stages.append(StreamingRunTests.groupBy(&random))
      case 1: stages.append(("writeCSV", #"{"path": "out.csv"}"#))
      default: break
      }
      try StreamingRunTests.write(Self.document(stages), csv: StreamingRunTests.csv(&random), to: folder)
      try await Self.convert(folder, rowGroupRows: Int.random(in: 1...90, using: &random))
      let streamed = await StreamingRunTests.run(folder, [])
      let materialized = await StreamingRunTests.run(folder, ["--no-streaming"])
      // Row groups on one thread or on several at once (`MorselPipeline`): the same run.
      let serial = await StreamingRunTests.run(folder, ["--threads", "1"])
      let wide = await StreamingRunTests.run(folder, ["--threads", "5"])
      #expect(serial == streamed && wide == streamed, "seed \(seed): \(stages)")
      #expect(materialized.streamed.isEmpty)
      var comparable = streamed
      comparable.streamed = []
      #expect(comparable == materialized, "seed \(seed): \(stages)")
      if !streamed.streamed.isEmpty {
        streamedCases += 1
        #expect(streamed.streamed.first == "read", "seed \(seed): the reader heads the chain")
      }
    }
    #expect(streamedCases >= cases / 2, "\(streamedCases) of \(cases) streamed")
  }

  /// A file with a row group whose chunk is cut short: the streamed chain gives up and the
  /// reader fails with the materialized message, naming the file.
  @Test func aDamagedRowGroupFailsAsTheMaterializedRead() async throws {
    let folder = try StreamingRunTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var csv = "k,x\n"
    for row in 0..<400 { csv += "\(row % 7),\(row * 3)\n" }
    try StreamingRunTests.write(
      Self.document([
        ("filter", #"{"where": "x > 30"}"#),
        ("groupBy", #"{"by": ["k"], "aggregate": {"n": "count()"}}"#)
      ]),
      csv: csv, to: folder)
    try await Self.convert(folder, rowGroupRows: 50)
    let path = folder.appendingPathComponent("data.parquet")
    var bytes = [UInt8](try Data(contentsOf: path))
    // Garbage over the middle of the data pages (the footer at the end stays intact).
    for index in (bytes.count / 3)..<(bytes.count / 3 + 64) { bytes[index] = 0xFF }
    try Data(bytes).write(to: path)
    let streamed = await StreamingRunTests.run(folder, [])
    let materialized = await StreamingRunTests.run(folder, ["--no-streaming"])
    #expect(streamed.status == 1, "\(streamed)")
    #expect(streamed.outputs == materialized.outputs && streamed.diagnostics == materialized.diagnostics)
    #expect(
      (streamed.outputs + streamed.rest.joined() + streamed.diagnostics.joined()).contains("data.parquet"),
      "\(streamed)")
    #expect(streamed.streamed.isEmpty)
  }
}
