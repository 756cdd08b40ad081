import FlowCodecs
import FlowGraph
import FlowTestSupport
import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// gzip by path for every reader and writer, and JSON Lines in `readJSON`/`writeJSON`.
@Suite struct CompressedAndLineFilesTests {
  static func evaluate(_ document: FlowDocument, in folder: String) throws -> GraphEvaluator {
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: folder)
    var evaluator = try GraphEvaluator(validating: document, registry: registry)
    evaluator.evaluate()
    return evaluator
  }

  static func file(_ folder: String, _ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
  }

  /// A gzip CSV (two members, as `cat a.gz b.gz` makes) through `groupBy` into a `.csv.gz`,
  /// `.json.gz` and `.jsonl`: each written file holds what the uncompressed pipeline gives.
  @Test func aGzipCSVReadsAndEveryWriterCompresses() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let csv =
      "species,mass\nAdelie,3750\nGentoo,5000\n" + (0..<3_000).map { "Chinstrap,\(3_000 + $0 % 700)\n" }.joined()
    let half = csv.utf8.count / 2
    let split = csv.utf8.index(csv.utf8.startIndex, offsetBy: half)
    let members = Gzip.compress(Array(csv.utf8[..<split])) + Gzip.compress(Array(csv.utf8[split...]))
    try Data(members).write(to: URL(fileURLWithPath: folder + "/penguins.csv.gz"))
    let document = FlowDocument(
      nodes: [
        .node("read", "readCSV", params: ["path": "penguins.csv.gz"]),
        .node("groups", "groupBy", params: ["by": ["species"], "aggregate": ["n": "count()", "mass": "max(mass)"]]),
        .node("csv", "writeCSV", params: ["path": "out/summary.csv.gz"]),
        .node("json", "writeJSON", params: ["path": "out/summary.json.gz", "pretty": false]),
        .node("lines", "writeJSON", params: ["path": "out/summary.jsonl"])
      ],
      edges: [
        .edge("e1", "read", "groups"), .edge("e2", "groups", "csv"), .edge("e3", "groups", "json"),
        .edge("e4", "groups", "lines")
      ])
    let evaluator = try Self.evaluate(document, in: folder)
    #expect(evaluator.failures == [:])
    let summary = "species,n,mass\nAdelie,1,3750\nGentoo,1,5000\nChinstrap,3000,3699\n"
    #expect(try Gzip.decompress(Self.file(folder, "out/summary.csv.gz"), limit: 1 << 20) == Array(summary.utf8))
    let json =
      #"[{"species":"Adelie","n":1,"mass":3750},{"species":"Gentoo","n":1,"mass":5000},{"species":"Chinstrap","n":3000,"mass":3699}]"#
    #expect(try Gzip.decompress(Self.file(folder, "out/summary.json.gz"), limit: 1 << 20) == Array((json + "\n").utf8))
    let lines = #"""
      {"species":"Adelie","n":1,"mass":3750}
      {"species":"Gentoo","n":1,"mass":5000}
      {"species":"Chinstrap","n":3000,"mass":3699}

      """#
    #expect(try String(decoding: Self.file(folder, "out/summary.jsonl"), as: UTF8.self) == lines)
    // Read back: the JSON Lines file and the compressed CSV give the table groupBy made.
    let back = FlowDocument(nodes: [
      .node("lines", "readJSON", params: ["path": "out/summary.jsonl"]),
      .node("csv", "readCSV", params: ["path": "out/summary.csv.gz"])
    ])
    let reread = try Self.evaluate(back, in: folder)
    #expect(reread.failures == [:])
    #expect(reread.value(of: "lines", port: "value") == evaluator.value(of: "groups", port: "table"))
    #expect(reread.value(of: "csv", port: "table") == evaluator.value(of: "groups", port: "table"))
  }

  @Test func jsonLinesOfMixedValuesAreAListAndABadLineIsNamed() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data("1\n\n\"two\"\r\n[3]\n".utf8).write(to: URL(fileURLWithPath: folder + "/values.ndjson"))
    try Data("{\"a\": 1}\n{\"a\": 2,}\n".utf8).write(to: URL(fileURLWithPath: folder + "/bad.txt"))
    try Data(Gzip.compress(Array("{\"a\": 1}\n".utf8)).dropLast(3)).write(
      to: URL(fileURLWithPath: folder + "/cut.jsonl.gz"))
    let document = FlowDocument(nodes: [
      .node("values", "readJSON", params: ["path": "values.ndjson"]),
      .node("bad", "readJSON", params: ["path": "bad.txt", "lines": true]),
      .node("cut", "readJSON", params: ["path": "cut.jsonl.gz"])
    ])
    let evaluator = try Self.evaluate(document, in: folder)
    #expect(evaluator.value(of: "values", port: "value") == .list([.integer(1), .string("two"), .list([.integer(3)])]))
    #expect(evaluator.failure(of: "bad")?.hasPrefix("bad.txt:2:") == true)
    #expect(evaluator.failure(of: "cut")?.hasPrefix("cut.jsonl.gz: the gzip trailer is missing") == true)
  }

  @Test func aFileThatDecompressesPastTheMemoryLimitFailsNamingIt() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(Gzip.compress([UInt8](repeating: 0x41, count: 1 << 20))).write(
      to: URL(fileURLWithPath: folder + "/big.txt.gz"))
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: folder)
    registry.environment.limits = RunLimits(maxMemoryBytes: 1 << 16)
    var evaluator = try GraphEvaluator(
      validating: FlowDocument(nodes: [.node("t", "readText", params: ["path": "big.txt.gz"])]),
      registry: registry)
    evaluator.evaluate()
    #expect(
      evaluator.failure(of: "t")
        == "big.txt.gz: the data decompresses to more than 65536 bytes (the memory limit; raise it with --max-memory)")
  }
}
