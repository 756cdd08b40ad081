import FlowCodecs
import FlowGraph
import FlowTestSupport
import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// The memory limit holds while the readers build their columns: `readCSV` (serial, parallel
/// blocks, in-memory blocks of a `.gz` file, morsels) and `readJSON` (arrays, JSON Lines) check
/// it before each block they convert, so a read past the limit fails by the reader's own name
/// and overshoots by at most one block; a read within the limit gives the unbounded table.
@Suite struct ReaderMemoryLimitTests {
  /// `rows` rows of an integer, a number, a text column (some quoted, some null).
  static func csv(rows: Int, seed: UInt64) -> [UInt8] {
    var random = SeededRandom(seed: seed)
    var text = "id,x,s\n"
    for row in 0..<rows {
      let word = Int.random(in: 0..<5, using: &random)
      let cell =
        word == 0 ? "" : word == 1 ? "\"a, \"\"quoted\"\" \(row)\"" : "w\(Int.random(in: 0..<1_000, using: &random))"
      text += "\(row),\(Double(Int.random(in: 0..<100_000, using: &random)) / 8),\(cell)\n"
    }
    return Array(text.utf8)
  }

  /// The same rows as JSON objects, one per line or in one array.
  static func json(rows: Int, seed: UInt64, lines: Bool) -> [UInt8] {
    var random = SeededRandom(seed: seed)
    let objects = (0..<rows).map { row in
      "{\"id\": \(row), \"s\": \"w[\\\"\(Int.random(in: 0..<1_000, using: &random))},\", \"n\": [1, {\"a\": null}]}"
    }
    return Array(
      (lines ? objects.joined(separator: "\n") + "\n" : "[\n" + objects.joined(separator: ",\n") + "\n]").utf8)
  }

  /// A document reading `file` (written into a fresh folder) with `kind` into `rowCount`,
  /// evaluated under `limits`: the reader's and the counter's failures.
  static func evaluate(_ kind: String, _ name: String, _ bytes: [UInt8], limits: RunLimits) throws -> (
    reader: String?, count: String?
  ) {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let data = name.hasSuffix(".gz") ? Data(Gzip.compress(bytes)) : Data(bytes)
    try data.write(to: URL(fileURLWithPath: folder + "/" + name))
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: folder)
    registry.environment.limits = limits
    let document = FlowDocument(
      nodes: [.node("r", kind, params: ["path": .string(name)]), .node("n", "rowCount")],
      edges: [.edge("e", "r", "n")])
    var evaluator = try GraphEvaluator(validating: document, registry: registry)
    evaluator.evaluate()
    return (evaluator.failure(of: "r"), evaluator.failure(of: "n"))
  }

  /// Every reader path, as (kind, file name, bytes): a small CSV (serial), a 1.3 MB one (parallel
  /// blocks), a compressed one (decompressed in memory, then read), a JSON array, JSON Lines.
  static let paths: [(String, String, [UInt8])] = [
    ("readCSV", "small.csv", csv(rows: 200, seed: 1)),
    ("readCSV", "large.csv", Array(("id,x,s\n" + String(repeating: "12345,1.5,word\n", count: 80_000)).utf8)),
    ("readCSV", "small.csv.gz", csv(rows: 200, seed: 3)),
    ("readJSON", "rows.json", json(rows: 300, seed: 4, lines: false)),
    ("readJSON", "rows.jsonl", json(rows: 300, seed: 5, lines: true))
  ]

  #if os(Linux)
  @Test(arguments: 0..<5) func aReaderPastTheMemoryLimitFailsByItsOwnName(path: Int) throws {
    let (kind, name, bytes) = Self.paths[path]
    let (reader, count) = try Self.evaluate(kind, name, bytes, limits: RunLimits(maxMemoryBytes: 1 << 20))
    let message = try #require(reader, "\(name): the reader failed")
    #expect(
      message.hasPrefix("reading the file would add ") && message.hasSuffix("(raise it with --max-memory)"),
      "\(name): \(message)")
    #expect(count?.contains("--max-memory") != true, "\(name): the consumer does not take the blame: \(count ?? "nil")")
  }

  @Test func theMorselReaderChecksBeforeEachMorsel() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(Self.csv(rows: 3_000, seed: 6)).write(to: URL(fileURLWithPath: folder + "/t.csv"))
    let file = try FileAccessPolicy.unrestricted.open(folder + "/t.csv", relativeTo: folder)
    var reader = CSVReader()
    reader.limits = RunLimits(maxMemoryBytes: 1 << 20)
    var morsels = 0
    let message = KindHarness.failure {
      try CSVMorsels.read(file, reader: reader, morselBytes: 4_096) { _ in morsels += 1 }
    }
    #expect(message?.hasSuffix("(raise it with --max-memory)") == true && morsels == 0, "\(message ?? "nil")")
  }
  #endif

  /// One check per block, each asking for no more than a block: a read overshoots the limit by at
  /// most one block (counted with `LimitProbe`, on the paths that check on the caller's thread).
  @Test func theReadersCheckOncePerBlock() throws {
    let bytes = Self.csv(rows: 20_000, seed: 7)
    var reader = CSVReader()
    reader.limits = RunLimits()
    reader.memoryCheckBytes = 16 << 10
    let serial = LimitProbe()
    try LimitProbe.$current.withValue(serial) { _ = try bytes.withUnsafeBufferPointer { try reader.parse($0) } }
    #expect(
      serial.memoryChecks >= bytes.count / (32 << 10) && serial.largestMemoryRequest <= 16 << 10,
      "serial: \(serial.memoryChecks) checks of \(bytes.count) bytes, largest \(serial.largestMemoryRequest)")
    let blocks = LimitProbe()
    _ = try LimitProbe.$current.withValue(blocks) {
      try CSVInPlaceColumnsTests.readFile(bytes, workers: 2, block: 8 << 10) { $0.limits = RunLimits() }
    }
    #expect(
      blocks.memoryChecks >= bytes.count / (32 << 10) && blocks.largestMemoryRequest <= 16 << 10,
      "blocks: \(blocks.memoryChecks) checks, largest \(blocks.largestMemoryRequest)")
    for lines in [false, true] {
      let json = Self.json(rows: 2_000, seed: 8, lines: lines)
      var jsonReader = JSONBlockReader(limits: RunLimits(), path: "t.json")
      jsonReader.textBlockBytes = 4_096
      let probe = LimitProbe()
      _ = try LimitProbe.$current.withValue(probe) {
        lines ? .array(try jsonReader.lines(json)) : try jsonReader.value(json)
      }
      #expect(
        probe.memoryChecks >= json.count / 8_192 && probe.largestMemoryRequest <= 4_096 * 8,
        "JSON (lines: \(lines)): \(probe.memoryChecks) checks of \(json.count) bytes")
    }
  }

  /// Within the limit (the default), every path reads what the unbounded reader reads.
  @Test(arguments: 0..<12) func aReadWithinTheLimitEqualsTheUnboundedRead(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let rows = Int.random(in: 0..<4_000, using: &random)
    let bytes = Self.csv(rows: rows, seed: seed)
    let unbounded = try bytes.withUnsafeBufferPointer { try CSVReader().parse($0) }
    var bounded = CSVReader()
    bounded.limits = RunLimits()
    bounded.memoryCheckBytes = Int.random(in: 1..<8_192, using: &random)
    #expect(try bytes.withUnsafeBufferPointer { try bounded.parse($0) } == unbounded, "seed \(seed): serial")
    let block = Int.random(in: 256..<16_384, using: &random)
    let blocks = try CSVInPlaceColumnsTests.readFile(bytes, workers: 3, block: block) { $0.limits = RunLimits() }
    #expect(blocks == nil || blocks == unbounded, "seed \(seed): blocks of \(block)")
    for lines in [false, true] {
      let json = Self.json(rows: rows / 8, seed: seed, lines: lines)
      var reader = JSONBlockReader(limits: RunLimits(), path: "t.json")
      reader.textBlockBytes = Int.random(in: 1..<4_096, using: &random)
      let read: JSONValue = lines ? .array(try reader.lines(json)) : try reader.value(json)
      let whole: JSONValue =
        lines ? .array(try JSONBlockReader(limits: nil, path: "t").lines(json)) : try JSONValue.parse(json)
      #expect(read == whole, "seed \(seed): JSON, lines \(lines)")
    }
  }
}
