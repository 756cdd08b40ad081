import FlowTestSupport
import Foundation
import Testing

/// A streamed chain whose `groupBy` takes its rows by group: the last `filter` hands on the
/// rows it keeps and the `derive`s and `select`s after it run on every row (`StreamedChain`).
/// The output, the report's sets and the failures are those of `--no-streaming`, also where
/// a formula fails only on rows the filter dropped.
@Suite struct StreamingDeferredFilterTests {
  /// The aggregates a `groupBy` takes its rows by group for.
  static let aggregates = [
    "count()", "sum(x)", "sum(y)", "mean(y)", "mean(x)", "sum(m)", "sum(b)", "mean(b)", "sum(c0_0)"
  ]

  @Test func sumChainsAfterAFilterStreamAsTheyRunMaterialized() async throws {
    var streamedCases = 0
    let cases = 40
    for seed in 0..<UInt64(cases) {
      var random = SeededRandom(seed: seed &* 6_007 &+ 1)
      let folder = try StreamingRunTests.folder()
      defer { try? FileManager.default.removeItem(at: folder) }
      var stages: [(String, String)] = [StreamingRunTests.filter(&random)]
      for number in 0..<Int.random(in: 0...2, using: &random) {
        stages.append(
          Int.random(in: 0..<3, using: &random) == 0
            ? StreamingRunTests.filter(&random) : StreamingRunTests.derive(&random, number))
      }
      stages.append(
        StreamingRunTests.groupBy(
          &random, keyChoices: [["k"], ["g"], ["k", "g"], []], aggregates: Self.aggregates))
      try StreamingRunTests.write(
        StreamingRunTests.document(stages), csv: StreamingRunTests.csv(&random), to: folder)
      let morsel = String(Int.random(in: 64...1024, using: &random))
      let streamed = await StreamingRunTests.run(folder, ["--morsel-bytes", morsel])
      let materialized = await StreamingRunTests.run(folder, ["--no-streaming"])
      #expect(streamed.with(streamed: []) == materialized, "seed \(seed): \(stages)")
      if !streamed.streamed.isEmpty { streamedCases += 1 }
    }
    #expect(streamedCases >= cases / 4, "\(streamedCases) of \(cases) streamed")
  }

  /// Past two blocks of 65,536 kept rows, in morsels that cut them anywhere: the sums' blocks
  /// are blocks of the rows the filter kept, as materialized.
  @Test func keptRowsPastSeveralBlocksSumAsMaterialized() async throws {
    let folder = try StreamingRunTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var random = SeededRandom(seed: 65_537)
    var csv = "k,x,n,b\n"
    for row in 0..<150_000 {
      let x = Double.random(in: -1e6...1e6, using: &random) * (row % 97 == 0 ? 1e10 : 1)
      csv += "\(["A", "N", "R", "F"][Int.random(in: 0..<4, using: &random)]),\(x),\(row % 50),"
      csv += "\(row)\n"
    }
    try StreamingRunTests.write(
      StreamingRunTests.document([
        ("filter", #"{"where": "n < 47"}"#), ("derive", #"{"columns": {"y": "x * 0.1", "m": "n * 3"}}"#),
        (
          "groupBy",
          #"{"by": ["k"], "aggregate": {"c": "count()", "sy": "sum(y)", "mx": "mean(x)", "sm": "sum(m)", "mm": "mean(m)", "sb": "sum(b)"}}"#
        )
      ]), csv: csv, to: folder)
    // Two threads: the sums stay on the chain's thread, where the rows come by group.
    let streamed = await StreamingRunTests.run(folder, ["--morsel-bytes", "300000", "--threads", "2"])
    #expect(streamed.status == 0, "\(streamed.diagnostics)")
    #expect(streamed.streamed == ["read", "n0", "n1", "n2"])
    let whole = await StreamingRunTests.run(folder, ["--no-streaming"])
    #expect(streamed.with(streamed: []) == whole)
  }

  /// `b * 4` overflows on every row with a `b`, which the filter drops: the morsels run the
  /// `derive` again on the kept rows, and the chain still streams.
  @Test func aFormulaThatFailsOnlyOnDroppedRowsStillStreams() async throws {
    let folder = try StreamingRunTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var csv = "k,x,b\n"
    for row in 0..<3_000 {
      csv += "\(["A", "N", "R"][row % 3]),\(Double(row) * 0.1),\(row % 5 == 0 ? "" : String(Int64(1) << 62))\n"
    }
    try StreamingRunTests.write(
      StreamingRunTests.document([
        ("filter", #"{"where": "isNull(b)"}"#), ("derive", #"{"columns": {"q": "b * 4", "y": "x * 2"}}"#),
        ("groupBy", #"{"by": ["k"], "aggregate": {"n": "count()", "sy": "sum(y)", "my": "mean(x)", "sq": "sum(q)"}}"#)
      ]), csv: csv, to: folder)
    let streamed = await StreamingRunTests.run(folder, ["--morsel-bytes", "512"])
    #expect(streamed.status == 0, "\(streamed)")
    #expect(streamed.streamed == ["read", "n0", "n1", "n2"])
    let whole = await StreamingRunTests.run(folder, ["--no-streaming"])
    #expect(streamed.with(streamed: []) == whole)
    #expect(streamed.outputs.contains("n2.table = table (3 rows × 5 columns)"), "\(streamed.outputs)")
    // Without the filter, the same formula fails, naming the node, streamed or not.
    try StreamingRunTests.write(
      StreamingRunTests.document([
        ("derive", #"{"columns": {"q": "b * 4"}}"#),
        ("groupBy", #"{"by": ["k"], "aggregate": {"n": "count()", "sq": "sum(q)"}}"#)
      ]), csv: csv, to: folder)
    let failing = await StreamingRunTests.run(folder, ["--morsel-bytes", "512"])
    #expect(failing.status != 0)
    #expect(failing.with(streamed: []) == (await StreamingRunTests.run(folder, ["--no-streaming"])))
  }
}
