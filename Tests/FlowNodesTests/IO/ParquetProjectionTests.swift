import FlowGraph
import FlowTestSupport
import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `readParquet` reads only what the graph uses: a column left out is never read nor decoded
/// (its chunks overwritten with garbage, a pipeline that does not use it still runs, and the
/// bytes read from the file are exactly the footer's and the wanted chunks'); one that is used
/// fails naming it.
@Suite struct ParquetProjectionTests {
  /// A random table of an integer, a text and a number column (nulls in some rows), written
  /// in row groups of `groupRows`, and the file with every chunk of `s` overwritten.
  static func files(seed: Int) throws -> (table: Table, file: [UInt8], corrupt: [UInt8]) {
    var random = SeededRandom(seed: UInt64(seed))
    let rows = 1 + Int(random.next() % 2_000)
    var integers = ColumnBuilder(.integer, capacity: rows)
    var text = ColumnBuilder(.string, capacity: rows)
    var numbers = ColumnBuilder(.number, capacity: rows)
    for row in 0..<rows {
      if random.next() % 9 == 0 {
        integers.appendNull()
      } else {
        integers.append(integer: Int64(bitPattern: random.next()) >> 20)
      }
      text.append(utf8: Array("row \(row % 37)".utf8))
      if seed % 2 == 0, random.next() % 5 == 0 {
        numbers.appendNull()
      } else {
        numbers.append(number: Double(random.next() % 1_000) / 8)
      }
    }
    let table = try Table([("i", integers.build()), ("s", text.build()), ("x", numbers.build())])
    let writer = ParquetWriter(
      compression: ParquetWriter.Compression.allCases[seed % 5], rowGroupRows: [50, 400, 1 << 20][seed % 3],
      dictionary: seed % 3 != 0, pageVersion: 1 + seed % 2)
    let file = try writer.write(table)
    var corrupt = file
    let metadata = try ParquetReader.footer(file)
    let dataEnd = file.count - 8 - Int(ParquetValues.littleEndian(file, file.count - 8, 4))
    for group in metadata.rowGroups {
      for index in try ParquetChunkReader.extent(of: group.columns[1], dataEnd: dataEnd) { corrupt[index] = 0xFF }
    }
    return (table, file, corrupt)
  }

  @Test(arguments: 0..<12) func aColumnLeftOutIsNeverDecoded(seed: Int) throws {
    let (table, file, corrupt) = try Self.files(seed: seed)
    let reader = ParquetReader(columns: ["i", "x"])
    let expected = try Table([("i", table.columns[0]), ("x", table.columns[2])])
    #expect(try reader.read(corrupt) == expected)
    #expect(try reader.read(file) == expected)
    #expect(try ParquetReader().read(file) == table)
    let error = try #require(throws: ParquetError.self) { try ParquetReader().read(corrupt) }
    #expect(error.message.hasPrefix("column 's': "), "\(error.message)")
  }

  /// Read from a file by ranges: the bytes read are the magic numbers, the footer and the
  /// wanted columns' chunks, nothing else.
  @Test(arguments: 0..<6) func onlyTheWantedChunksAreReadFromTheFile(seed: Int) throws {
    let (table, file, corrupt) = try Self.files(seed: seed)
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(corrupt).write(to: URL(fileURLWithPath: folder + "/t.parquet"))
    let progress = PassProgress()
    let opened = try FileAccessPolicy.unrestricted.open(folder + "/t.parquet", relativeTo: folder)
    let read = try ParquetReader(columns: ["x"]).read(ParquetSource.opened(opened, progress: progress))
    #expect(read == (try Table([("x", table.columns[2])])))
    let metadata = try ParquetReader.footer(file)
    let footer = Int(ParquetValues.littleEndian(file, file.count - 8, 4))
    let dataEnd = file.count - 8 - footer
    var chunks = 0
    for group in metadata.rowGroups where group.rowCount > 0 {
      chunks += try ParquetChunkReader.extent(of: group.columns[2], dataEnd: dataEnd).count
    }
    #expect(progress.bytesRead.load(ordering: .relaxed) == 4 + 8 + footer + chunks)
  }

  /// Many small row groups decoded on 1, 2 or 7 threads (chunks finishing out of order): the
  /// same table, nulls and dictionary text included; a column whose chunks in row groups 3 and
  /// 7 are corrupt fails naming row group 3 whatever the thread count.
  @Test(arguments: [1, 2, 7]) func rowGroupsInParallelGiveTheSameTable(workers: Int) throws {
    var random = SeededRandom(seed: UInt64(workers))
    let rows = 30_000
    var integers = ColumnBuilder(.integer, capacity: rows)
    var text = ColumnBuilder(.string, capacity: rows)
    var unique = ColumnBuilder(.string, capacity: rows)
    var numbers = ColumnBuilder(.number, capacity: rows)
    for row in 0..<rows {
      if row > 20_000, random.next() % 4 == 0 {
        integers.appendNull()
      } else {
        integers.append(integer: Int64(random.next() % 1_000))
      }
      if random.next() % 11 == 0 {
        text.appendNull()
      } else {
        text.append(utf8: Array(["A", "N", "R", "Ö"][Int(random.next() % 4)].utf8))
      }
      unique.append(utf8: Array("comment \(random.next() % 100_000)".utf8))
      numbers.append(number: Double(random.next() % 10_000) / 100)
    }
    let table = try Table([("i", integers.build()), ("s", text.build()), ("u", unique.build()), ("x", numbers.build())])
    let file = try ParquetWriter(compression: .snappy, rowGroupRows: 1_000 + workers * 100, dictionary: true).write(
      table)
    var reader = ParquetReader()
    reader.workers = workers
    #expect(try reader.read(file) == table)
    var corrupt = file
    let metadata = try ParquetReader.footer(file)
    let dataEnd = file.count - 8 - Int(ParquetValues.littleEndian(file, file.count - 8, 4))
    for group in [2, 6] {
      for index in try ParquetChunkReader.extent(of: metadata.rowGroups[group].columns[3], dataEnd: dataEnd) {
        corrupt[index] = 0xFF
      }
    }
    let error = try #require(throws: ParquetError.self) { try reader.read(corrupt) }
    #expect(error.message.hasPrefix("column 'x': ") && error.message.hasSuffix("(row group 3)"), "\(error.message)")
  }

  /// Through the engine: the column demand leaves the corrupt column out of a graph that does
  /// not use it; one that uses it fails naming the file and the column.
  @Test func aGraphThatDoesNotUseTheColumnRuns() throws {
    let (table, _, corrupt) = try Self.files(seed: 4)
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(corrupt).write(to: URL(fileURLWithPath: folder + "/t.parquet"))
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: folder)
    let document = FlowDocument(
      nodes: [
        .node("read", "readParquet", params: ["path": "t.parquet"]),
        .node("sum", "derive", params: ["columns": ["y": "x * 2"]]),
        .node("pick", "select", params: ["columns": ["y"]]),
        .node("again", "readParquet", params: ["path": "t.parquet"]),
        .node("text", "select", params: ["columns": ["s"]])
      ],
      edges: [.edge("e1", "read", "sum"), .edge("e2", "sum", "pick"), .edge("e3", "again", "text")])
    var evaluator = try GraphEvaluator(
      validating: ColumnDemand.applied(to: document, registry: registry), registry: registry)
    evaluator.evaluate()
    guard case .table(let picked)? = evaluator.value(of: "pick", port: "table") else {
      Issue.record("no table: \(evaluator.failure(of: "read") ?? "")")
      return
    }
    #expect(picked.rowCount == table.rowCount)
    #expect(evaluator.failure(of: "again")?.contains("t.parquet: column 's': ") == true)
  }
}
