import FlowGraph
import FlowTestSupport
import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `writeParquet` and `ParquetWriter`: random tables of every column type (nulls, empty and
/// Unicode strings, integers near ±2^63, NaN and −0.0, dictionary and flat strings) written with
/// every codec, page version, row-group size and dictionary setting read back by `readParquet` equal to what
/// was written; the file's structure (magic, footer length, chunks, dictionary pages); the node
/// writes atomically where `path` says and refuses what it cannot write, naming the param.
@Suite struct ParquetWriterTests {
  static let strings = ["", "a", "b", "Zürich", "日本語", "🦆🦆", "x,y\n\"z\"", String(repeating: "long ", count: 40)]

  /// A random table: one column of each type (and a low-cardinality dictionary string column),
  /// nulls in some, `rows` rows.
  static func table(_ random: inout SeededRandom, rows: Int) throws -> Table {
    var columns: [(String, Column)] = []
    let nullRate = [0, 0, 3, 10][Int(random.next() % 4)]
    func isNull(_ random: inout SeededRandom) -> Bool { nullRate > 0 && random.next() % UInt64(nullRate) == 0 }
    var integers = ColumnBuilder(.integer, capacity: rows)
    var numbers = ColumnBuilder(.number, capacity: rows)
    var bools = ColumnBuilder(.bool, capacity: rows)
    var text = ColumnBuilder(.string, capacity: rows)
    var unique = ColumnBuilder(.string, capacity: rows)
    let edges: [Int64] = [.max, .min, .max - 1, .min + 1, 1 << 53 + 1, -(1 << 53) - 1, 0, -1]
    let specials: [Double] = [.nan, -0.0, 0.0, .infinity, -.infinity, .leastNonzeroMagnitude, 1e300, -2.5]
    for row in 0..<rows {
      if isNull(&random) {
        integers.appendNull()
      } else {
        integers.append(
          integer: random.next() % 3 == 0
            ? edges[Int(random.next() % 8)] : Int64(bitPattern: random.next()) >> Int64(random.next() % 64))
      }
      if isNull(&random) {
        numbers.appendNull()
      } else {
        numbers.append(
          number: random.next() % 4 == 0
            ? specials[Int(random.next() % 8)]
            : Double(bitPattern: random.next() >> 2) * (random.next() % 2 == 0 ? 1 : -1))
      }
      if isNull(&random) { bools.appendNull() } else { bools.append(bool: random.next() % 2 == 0) }
      if isNull(&random) {
        text.appendNull()
      } else {
        text.append(utf8: Array(strings[Int(random.next() % UInt64(strings.count))].utf8))
      }
      if isNull(&random) {
        unique.appendNull()
      } else {
        unique.append(utf8: Array("row \(row) \(random.next() % 1_000) ü".utf8))
      }
    }
    columns = [
      ("i", integers.build()), ("x", numbers.build()), ("b", bools.build()), ("s", text.build()), ("u", unique.build())
    ]
    // The same strings in the dictionary layout (what readCSV makes of a low-cardinality column).
    if case .string(let flat) = columns[3].1.storage, let encoded = flat.dictionaryEncoded() {
      columns.append(("d", Column(.string(encoded), validity: columns[3].1.validity)))
    }
    return try Table(columns)
  }

  @Test(arguments: 0..<24) func randomTablesRoundTripThroughReadParquet(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed))
    let rows = [0, 1, 7, 300, 2_000][seed % 5] + Int(random.next() % 50)
    let table = try Self.table(&random, rows: rows)
    let compression = ParquetWriter.Compression.allCases[seed % 5]
    let pageVersion = seed % 2 + 1
    let writer = ParquetWriter(
      compression: compression, rowGroupRows: [1, 64, 1_000, 1 << 20][Int(random.next() % 4)],
      dictionary: seed % 3 != 0, pageVersion: pageVersion)
    let bytes = try writer.write(table)
    let back = try ParquetReader().read(bytes)
    #expect(back.columnNames == table.columnNames)
    #expect(back.rowCount == table.rowCount)
    for (name, (got, want)) in zip(table.columnNames, zip(back.columns, table.columns)) where got != want {
      let row = (0..<want.count).first { got[$0] != want[$0] } ?? -1
      Issue.record(
        "\(compression) v\(pageVersion) column \(name): row \(row) reads \(row >= 0 ? got[row] : .null), was \(row >= 0 ? want[row] : .null)"
      )
    }
  }

  @Test func theFileIsMagicChunksAndAFooterWithItsLength() throws {
    let codes = try Table([
      ("city", Column(.string(StringColumn((0..<5_000).map { ["Oslo", "Lima", "Pune"][$0 % 3] })))),
      ("n", Column(.integer((0..<5_000).map { Int64($0) })))
    ])
    let bytes = try ParquetWriter(compression: .snappy, rowGroupRows: 2_000).write(codes)
    #expect(Array(bytes.prefix(4)) == Array("PAR1".utf8))
    #expect(Array(bytes.suffix(4)) == Array("PAR1".utf8))
    let footerLength = Int(ParquetValues.littleEndian(bytes, bytes.count - 8, 4))
    #expect(footerLength > 0 && footerLength < bytes.count - 12)
    let metadata = try ParquetReader.footer(bytes)
    #expect(metadata.rowCount == 5_000)
    #expect(metadata.rowGroups.map(\.rowCount) == [2_000, 2_000, 1_000])
    #expect(metadata.schema.map(\.name) == ["schema", "city", "n"])
    #expect(metadata.schema[1].annotation == .string)
    for group in metadata.rowGroups {
      #expect(group.columns.map(\.type) == [6, 2])
      #expect(group.columns.map(\.codec) == [1, 1])
      #expect(group.columns[0].dictionaryPageOffset != nil)  // three distinct strings: a dictionary pays
      #expect(group.columns[1].dictionaryPageOffset == nil)
    }
    // Chunks follow each other from byte 4 to the footer.
    let chunks = metadata.rowGroups.flatMap(\.columns)
    #expect(chunks.first.map { $0.dictionaryPageOffset ?? $0.dataPageOffset } == 4)
    let end = chunks.last.map { $0.dataPageOffset + $0.totalCompressedSize }
    #expect(end == Int64(bytes.count - 8 - footerLength))
    // Without the dictionary, the strings are PLAIN; the table reads back the same.
    let plain = try ParquetWriter(compression: .none, rowGroupRows: 2_000, dictionary: false).write(codes)
    #expect(try ParquetReader.footer(plain).rowGroups[0].columns[0].dictionaryPageOffset == nil)
    #expect(try ParquetReader().read(plain) == codes)
    #expect(try ParquetReader().read(bytes) == codes)
  }

  @Test func theNodeWritesAtomicallyAndRefusesWhatItCannotWrite() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data("name,n\nada,1\n,2\nbob,\n".utf8).write(to: URL(fileURLWithPath: folder + "/in.csv"))
    let document = FlowDocument(
      nodes: [
        .node("read", "readCSV", params: ["path": "in.csv"]),
        .node("write", "writeParquet", params: ["path": "out/t.parquet", "compression": "gzip"])
      ],
      edges: [.edge("e1", "read", "write")])
    let evaluator = try CompressedAndLineFilesTests.evaluate(document, in: folder)
    #expect(evaluator.value(of: "write", port: "rows") == .integer(3))
    let back = try ParquetReader().read(CompressedAndLineFilesTests.file(folder, "out/t.parquet"))
    #expect(Value.table(back) == evaluator.value(of: "read", port: "table"))
    let refused: [(JSONObject, String)] = [
      (["path": "z.parquet", "compression": "brotli"], "must be snappy, zstd, gzip, lz4 or none, found \"brotli\""),
      (["path": "v.parquet", "pageVersion": 3], "must be 1 or 2, found 3"),
      (["path": "r.parquet", "rowGroupRows": 0], "rowGroupRows"),
      (["path": "t.parquet.gz"], "must not end in .gz")
    ]
    for (params, message) in refused {
      let bad = FlowDocument(nodes: [.node("bad", "writeParquet", params: params)])
      #expect { try CompressedAndLineFilesTests.evaluate(bad, in: folder) } throws: { "\($0)".contains(message) }
    }
    #expect(!FileManager.default.fileExists(atPath: folder + "/z.parquet"))
    #expect(evaluator.failures["write"] == nil && evaluator.failures["read"] == nil)
  }
}
