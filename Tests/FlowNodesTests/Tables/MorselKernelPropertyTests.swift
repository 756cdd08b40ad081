import Foundation
import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `join`, `sort` and the writers in morsels equal their serial form (one morsel, one thread)
/// bit for bit — rows, order, bytes — at 1, 2 and 7 workers, on random tables with nulls,
/// duplicate and null keys, cut into many small morsels (the morsel size is injected, so the
/// tables stay small).
@Suite struct MorselKernelPropertyTests {
  static let workerCounts = [1, 2, 7]

  /// A random table: keys with few distinct values (so they repeat) and about one null in
  /// eight; strings with non-ASCII text, commas, quotes and line feeds (the writers quote them).
  /// (`precomposed`: no "e" + U+0301, which Swift's `==` — the reference's — equates with "é".)
  static func table(
    _ random: inout SeededRandom, rows: Int, keyType: ColumnType, prefix: String = "",
    precomposed: Bool = false
  ) -> Table {
    func maybe<T>(_ make: () -> T) -> T? { Int.random(in: 0..<8, using: &random) == 0 ? nil : make() }
    let texts = [
      "a", "B", "é", precomposed ? "ü" : "e\u{301}", "", "x,y", "say \"hi\"", "two\nlines", "NA", "null", "Zürich", "日本"
    ]
    func column(_ type: ColumnType, distinct: Int) -> Column {
      switch type {
      case .integer:
        return .integers((0..<rows).map { _ in maybe { Int64.random(in: 0..<Int64(distinct), using: &random) - 3 } })
      case .number:
        let numbers = [0, -0.0, 0.5, 1, 2, -2.25, .nan, .infinity, 1e300, 3.0e-7]
        return .numbers(
          (0..<rows).map { _ in maybe { numbers[Int.random(in: 0..<min(distinct, numbers.count), using: &random)] } })
      case .bool: return .bools((0..<rows).map { _ in maybe { Bool.random(using: &random) } })
      case .string:
        return .strings(
          (0..<rows).map { _ in maybe { texts[Int.random(in: 0..<min(distinct, texts.count), using: &random)] } })
      }
    }
    return try! Table([
      ("k", column(keyType, distinct: 12)), ("s", column(.string, distinct: 6)),
      (prefix + "x", column(.number, distinct: 10)), (prefix + "n", column(.integer, distinct: 1000)),
      (prefix + "b", column(.bool, distinct: 2))
    ])
  }

  static func morsels(_ workers: Int, rows: Int = 64) -> TableMorsels { TableMorsels(rows: rows, workers: workers) }

  @Test(arguments: 0..<8)
  func joinInMorselsEqualsTheSerialJoin(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let types: [ColumnType] = [.integer, .string, .number, .bool]
    let leftType = types[Int(seed) % 4]
    // Integer keys meet number keys on the other side now and then.
    let rightType = leftType == .integer && seed % 8 == 4 ? .number : leftType
    let left = Self.table(
      &random, rows: 500 + Int.random(in: 0..<300, using: &random), keyType: leftType, precomposed: seed < 2)
    let right = Self.table(
      &random, rows: 130 + Int.random(in: 0..<100, using: &random), keyType: rightType,
      prefix: seed % 2 == 0 ? "r" : "", precomposed: seed < 2)
    let keys = seed % 3 == 0 ? ["k", "s"] : ["k"]
    for kind in JoinKind.allCases {
      let serial = try JoinNode.Evaluator.joined(
        left, right, keys: keys, kind: kind, limits: RunLimits(), morsels: .serial)
      #expect(serial.rowCount > 0, "\(kind), seed \(seed)")
      for workers in Self.workerCounts {
        for morselRows in [64, 192] {
          let parallel = try JoinNode.Evaluator.joined(
            left, right, keys: keys, kind: kind, limits: RunLimits(),
            morsels: Self.morsels(workers, rows: morselRows))
          #expect(parallel == serial, "\(kind), seed \(seed), \(workers) workers, morsels of \(morselRows)")
        }
      }
      // The serial form is the nested-loop reference's join (compared as text: NaN cells).
      if seed < 2 {
        let expected = JoinKindPropertyTests.reference(kind.rawValue, left: left, right: right, keys: keys)
        #expect("\(KindHarness.rows(serial))" == "\(expected)", "\(kind), seed \(seed): reference")
      }
    }
  }

  @Test func joinCodesProbeTheLeftSideInMorsels() throws {
    // Null keys match nothing; a left key no right row has is -1; right codes in first-appearance order.
    let left = Column.strings(["b", nil, "a", "zz", "b", "a"]), right = Column.strings(["a", "b", nil, "a"])
    for workers in Self.workerCounts {
      let codes = try JoinCodes.codes(left: left, right: right, name: "k", morsels: Self.morsels(workers, rows: 2))
      #expect(codes.left == [1, -1, 0, -1, 1, 0])
      #expect(codes.right == [0, 1, -1, 0])
      #expect(codes.cardinality == 2)
    }
    #expect(throws: NodeError.self) {
      try JoinCodes.codes(left: .integers([1]), right: .strings(["1"]), name: "k", morsels: .serial)
    }
  }

  @Test func integerCodeTableGivesFirstAppearanceCodes() {
    // Keys that share low or high bits, extremes and repeats, against a dictionary.
    var random = SeededRandom(seed: 11)
    let pool: [Int64] =
      [0, -1, 1, .min, .max, 1 << 32, 2 << 32, 3 << 32, 1 << 62, -(1 << 40)] + (0..<300).map { Int64($0) * 4096 }
    let keys = (0..<5_000).map { _ in pool.randomElement(using: &random)! &+ Int64.random(in: 0..<3, using: &random) }
    var table = IntegerCodeTable(capacity: keys.count)
    var reference: [Int64: Int32] = [:]
    for key in keys {
      let expected = reference[key] ?? Int32(reference.count)
      reference[key] = expected
      #expect(table.insert(key) == expected)
    }
    #expect(table.count == reference.count)
    for key in pool + [7, 12_345_678, -3] { #expect(table.code(of: key) == (reference[key] ?? -1)) }
  }

  @Test(arguments: 0..<6)
  func sortInMorselsEqualsTheSerialSort(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let table = Self.table(
      &random, rows: 900 + Int.random(in: 0..<400, using: &random), keyType: [.integer, .string, .number][Int(seed) % 3]
    )
    let orders: [[String]] = [["k"], ["-k"], ["s", "-x"], ["b", "k", "-s"], ["-x"], ["n"]]
    for by in orders {
      let keys = by.map {
        $0.hasPrefix("-") ? (name: String($0.dropFirst()), descending: true) : (name: $0, descending: false)
      }
      let columns = keys.map { (column: table.column(named: $0.name)!, descending: $0.descending) }
      let serial = try SortNode.Evaluator.order(rowCount: table.rowCount, columns, morsels: .serial)
      #expect(serial.count == table.rowCount)
      for workers in Self.workerCounts {
        for morselRows in [64, 100] {
          let parallel = try SortNode.Evaluator.order(
            rowCount: table.rowCount, columns, morsels: Self.morsels(workers, rows: morselRows))
          #expect(parallel == serial, "by \(by), seed \(seed), \(workers) workers, morsels of \(morselRows)")
        }
      }
      // The serial order is the reference: stable, nulls last, by each key in turn.
      let reference = (0..<table.rowCount).sorted { a, b in
        for key in keys {
          let column = table.column(named: key.name)!
          switch (column.isNull(a), column.isNull(b)) {
          case (true, true): continue
          case (true, false): return false
          case (false, true): return true
          default:
            let order = CellOrder.comparator(for: column)(a, b)
            if order != 0 { return key.descending ? order > 0 : order < 0 }
          }
        }
        return a < b
      }
      #expect(serial.map(Int.init) == reference, "by \(by), seed \(seed): reference")
    }
  }

  @Test func sortKeysOrderCellsAsCellOrderDoes() throws {
    // -inf < -2.25 < -0 == 0 < 3e-7 < inf < NaN (either sign); nulls last in both directions.
    let numbers: [Double?] = [.nan, 0, -2.25, nil, .infinity, -0.0, -.infinity, 3e-7, -Double.nan, 0]
    let integers: [Int64?] = [5, .min, nil, -1, .max, 0, 5, nil, -1, 1]
    let strings: [String?] = ["b", "", nil, "é", "a", "e\u{301}", "ab", "b", nil, "Z"]
    for column in [
      Column.numbers(numbers), .integers(integers), .strings(strings), .bools(numbers.map { $0.map { $0 > 0 } })
    ] {
      for descending in [false, true] {
        let order = try SortNode.Evaluator.order(
          rowCount: column.count, [(column, descending)], morsels: Self.morsels(2, rows: 3))
        let compare = CellOrder.comparator(for: column)
        let expected = (0..<column.count).sorted { a, b in
          if column.isNull(a) || column.isNull(b) { return column.isNull(a) ? false : true }
          let order = compare(a, b)
          return order != 0 ? (descending ? order > 0 : order < 0) : a < b
        }
        #expect(order.map(Int.init) == expected, "\(column.type), descending \(descending)")
      }
    }
  }

  @Test func mergingRunsIsStable() {
    // Equal keys (the order says rows 1 and 3 tie with 0 and 2): the first run's rows go first.
    let key: [Int32] = [5, 5, 7, 5]
    let less: (Int32, Int32) -> Bool = { key[Int($0)] < key[Int($1)] }
    #expect(SortRuns.merged([0, 2], [1, 3], by: less) == [0, 1, 3, 2])
    #expect(SortRuns.merged([], [1, 3], by: less) == [1, 3])
  }

  @Test(arguments: 0..<4)
  func writersInMorselsWriteTheSerialBytes(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let table = Self.table(&random, rows: 300 + Int.random(in: 0..<300, using: &random), keyType: .string)
    var writer = CSVWriter()
    if seed % 2 == 1 { writer.delimiter = UInt8(ascii: ";") }
    let serialCSV = try writer.bytes(of: table)
    for workers in Self.workerCounts {
      for morselRows in [64, 77] {
        var csv: [UInt8] = [], json: [UInt8] = [], compact: [UInt8] = []
        try MorselWriter.csv(table, writer: writer, morsels: Self.morsels(workers, rows: morselRows)) { csv += $0 }
        try MorselWriter.json(table, pretty: true, morsels: Self.morsels(workers, rows: morselRows)) { json += $0 }
        try MorselWriter.json(table, pretty: false, morsels: Self.morsels(workers, rows: morselRows)) { compact += $0 }
        #expect(csv == serialCSV, "CSV, seed \(seed), \(workers) workers, morsels of \(morselRows)")
        #expect(
          json == table.jsonRows.serializedBytes(options: [.prettyPrinted]) + [0x0A],
          "JSON, seed \(seed), \(workers) workers")
        #expect(
          compact == table.jsonRows.serializedBytes(options: []) + [0x0A],
          "compact JSON, seed \(seed), \(workers) workers")
      }
    }
  }

  @Test func writersOfEmptyAndOneMorselTablesWriteTheSerialBytes() throws {
    for table in [
      Table(), try Table([("a", .integers([]))]), try Table([("a", .integers([1, nil])), ("b", .strings(["", "x"]))])
    ] {
      var csv: [UInt8] = [], json: [UInt8] = []
      try MorselWriter.csv(table, writer: CSVWriter(), morsels: Self.morsels(7)) { csv += $0 }
      try MorselWriter.json(table, pretty: true, morsels: Self.morsels(7)) { json += $0 }
      #expect(csv == (try CSVWriter().bytes(of: table)))
      #expect(json == table.jsonRows.serializedBytes(options: [.prettyPrinted]) + [0x0A])
    }
  }
}
