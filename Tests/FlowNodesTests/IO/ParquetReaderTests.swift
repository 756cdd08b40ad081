import FlowGraph
import FlowTestSupport
import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `readParquet` over small files pyarrow wrote (`ParquetTestFiles`): every supported type,
/// codec, encoding and page version gives the table pyarrow reads; what cannot be read fails
/// naming the column; mutated files fail cleanly, never trap.
@Suite struct ParquetReaderTests {
  static func bytes(_ base64: String) -> [UInt8] { Array(Data(base64Encoded: base64)!) }

  @Test(arguments: ParquetTestFiles.files.map(\.name))
  func aFileReadsAsPyarrowReadsIt(name: String) throws {
    let file = try #require(ParquetTestFiles.files.first { $0.name == name })
    let table = try ParquetReader().read(Self.bytes(file.base64))
    let expected = try JSONValue.parse(file.expected)
    guard case .object(let object) = expected, case .array(let columns)? = object["columns"],
      case .array(let rows)? = object["rows"]
    else {
      Issue.record("bad expectation")
      return
    }
    let names = columns.map { column -> String in
      guard case .array(let pair) = column, case .string(let name) = pair[0] else { return "" }
      return name
    }
    let types = columns.map { column -> String in
      guard case .array(let pair) = column, case .string(let type) = pair[1] else { return "" }
      return type
    }
    #expect(table.columnNames == names)
    #expect(table.columns.map(\.type.rawValue) == types)
    #expect(table.rowCount == rows.count)
    guard case .array(let got) = table.jsonRows else { return }
    for (index, (row, want)) in zip(got, rows).enumerated() where row != want {
      Issue.record("row \(index + 1): got \(row), want \(want)")
      break
    }
  }

  @Test func onlyTheColumnsAskedForAreReadAndANestedOneFailsNamingIt() throws {
    let nested = Self.bytes(ParquetTestFiles.nested)
    var reader = ParquetReader()
    reader.columns = ["after", "flat"]
    let table = try reader.read(nested)
    #expect(table.columnNames == ["flat", "after"])
    #expect(table.row(1) == [.integer(2), .string("q")])
    reader.columns = ["items"]
    #expect(throws: ParquetError("column 'items': a nested column (a list, map or struct); only flat columns are read"))
    {
      try reader.read(nested)
    }
    reader.columns = []
    #expect(try reader.read(nested).rowCount == 2)
  }

  @Test func whatCannotBeReadFailsNamingTheColumn() {
    #expect(
      throws: ParquetError(
        "column 'u': the UINT64 value 9223372036854775813 is above the largest integer 9223372036854775807")
    ) {
      try ParquetReader().read(Self.bytes(ParquetTestFiles.uint64))
    }
    #expect(throws: ParquetError("column 'raw': value 2 is a byte array that is not UTF-8 text")) {
      try ParquetReader().read(Self.bytes(ParquetTestFiles.notUTF8))
    }
    #expect(throws: ParquetError("not a Parquet file (no PAR1 at its start)")) {
      try ParquetReader().read(Array("a,b\n1,2\n".utf8))
    }
    let plain = Self.bytes(ParquetTestFiles.files[0].base64)
    #expect(throws: ParquetError("the file is truncated (no PAR1 at its end)")) {
      try ParquetReader().read(Array(plain.dropLast(1)))
    }
  }

  @Test func aZstandardFileReads() throws {
    let table = try ParquetReader().read(Self.bytes(ParquetTestFiles.zstd))
    #expect(table == (try Table([("z", Column(.integer([1, 2, 3])))])))
  }

  @Test func theRowLimitIsCheckedBeforeDecoding() {
    let plain = Self.bytes(ParquetTestFiles.files[0].base64)
    let reader = ParquetReader(limits: RunLimits(maxRows: 6))
    #expect(
      throws: NodeError("the Parquet file would have 7 rows, more than the row limit 6 (raise it with --max-rows)")
    ) {
      try reader.read(plain)
    }
  }

  #if os(Linux)
  /// The wanted columns' sizes are checked against the memory limit before any page is read.
  @Test func theMemoryLimitIsCheckedBeforeDecoding() throws {
    let plain = Self.bytes(ParquetTestFiles.files[0].base64)
    let error = try #require(throws: NodeError.self) {
      try ParquetReader(limits: RunLimits(maxMemoryBytes: 1_024)).read(plain)
    }
    #expect(error.message.hasPrefix("the Parquet file's columns would add "), "\(error.message)")
    #expect(error.message.hasSuffix("past the memory limit 1.0 KiB (raise it with --max-memory)"), "\(error.message)")
  }
  #endif

  /// Mutated files (bytes flipped, runs cut out, bytes inserted, the footer cut): each reads
  /// or fails with a `ParquetError`, never traps.
  @Test(arguments: 0..<24) func mutatedFilesFailCleanly(seed: Int) {
    var random = SeededRandom(seed: UInt64(seed))
    let files = ParquetTestFiles.files.map { Self.bytes($0.base64) }
    for round in 0..<25 {
      var file = files[(seed + round) % files.count]
      for _ in 0..<Int(random.next() % 3) + 1 {
        let at = Int(random.next() % UInt64(file.count))
        switch random.next() % 4 {
        case 0: file[at] = UInt8(truncatingIfNeeded: random.next())
        case 1: file[at] ^= 1 << UInt8(random.next() % 8)
        case 2: file.removeSubrange(at..<min(file.count, at + Int(random.next() % 16) + 1))
        default: file.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
        }
      }
      do { _ = try ParquetReader().read(file) } catch is ParquetError {} catch is NodeError {} catch {
        Issue.record("seed \(seed) round \(round): \(error)")
      }
    }
  }

  /// Through the engine: `flow run`'s column demand sets `columns` to what `select` reads, so
  /// the list column is never decoded; a bad file fails the node naming the path.
  @Test func theNodeReadsWhatTheGraphUsesAndNamesTheFile() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(Self.bytes(ParquetTestFiles.nested)).write(to: URL(fileURLWithPath: folder + "/n.parquet"))
    try Data("not parquet".utf8).write(to: URL(fileURLWithPath: folder + "/bad.parquet"))
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: folder)
    let document = FlowDocument(
      nodes: [
        .node("read", "readParquet", params: ["path": "n.parquet"]),
        .node("pick", "select", params: ["columns": ["after"]]),
        .node("bad", "readParquet", params: ["path": "bad.parquet"])
      ],
      edges: [.edge("e1", "read", "pick")])
    let demanded = ColumnDemand.applied(to: document, registry: registry)
    #expect(demanded.nodes[0].data.params["columns"] == .array([.string("after")]))
    var evaluator = try GraphEvaluator(validating: demanded, registry: registry)
    evaluator.evaluate()
    #expect(evaluator.evaluationCount(of: "read") == 1)
    #expect(evaluator.evaluationCount(of: "pick") == 1)
    #expect(
      evaluator.value(of: "pick", port: "table")
        == .table(try Table([("after", Column(.string(StringColumn(["p", "q"]))))])))
    #expect(evaluator.failure(of: "bad")?.contains("bad.parquet: not a Parquet file") == true)
    var whole = try GraphEvaluator(validating: document, registry: registry)
    whole.evaluate()
    #expect(whole.failure(of: "read")?.contains("n.parquet: column 'items': a nested column") == true)
  }

  /// A dictionary-encoded text column reads as a dictionary string column (its text converted
  /// once per entry), equal cell for cell to the flat read of the same strings, nulls included,
  /// over row groups whose dictionaries differ.
  @Test(arguments: 0..<6) func aDictionaryColumnReadsAsADictionaryColumn(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed))
    let words = ["", "Oslo", "Lima", "Zürich", "日本", String(repeating: "long ", count: 9)]
    let rows = 1 + Int(random.next() % 3_000)
    var builder = ColumnBuilder(.string, capacity: rows)
    for _ in 0..<rows {
      if seed % 2 == 1, random.next() % 7 == 0 {
        builder.appendNull()
      } else {
        builder.append(utf8: Array(words[Int(random.next() % UInt64(1 + seed % words.count))].utf8))
      }
    }
    let table = try Table([("city", builder.build())])
    let groupRows = [64, 500, 1 << 20][seed % 3]
    let encoded = try ParquetReader().read(
      ParquetWriter(rowGroupRows: groupRows, dictionary: true, pageVersion: 1 + seed % 2).write(table))
    let flat = try ParquetReader().read(ParquetWriter(rowGroupRows: groupRows, dictionary: false).write(table))
    #expect(encoded.columns[0].isDictionaryEncoded)
    #expect(!flat.columns[0].isDictionaryEncoded)
    #expect(encoded.columns[0] == table.columns[0])
    #expect(flat.columns[0] == table.columns[0])
    for row in 0..<rows { #expect(encoded.columns[0][row] == table.columns[0][row]) }
  }
}
