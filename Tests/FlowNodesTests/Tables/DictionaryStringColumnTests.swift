import Foundation
import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// Dictionary-encoded string columns (`StringColumn`'s dictionary layout, made by `readCSV` for
/// low-cardinality columns) give every table kind the same output as the flat layout, at 1, 2
/// and 7 workers; the CSV reader encodes a low-cardinality column and leaves a high-cardinality
/// one flat; the two layouts compare and hash by value. (Both knobs — workers and the reader's
/// encoding — are process-wide, so the suite runs serialized; results never depend on them.)
@Suite(.serialized) struct DictionaryStringColumnTests {
  static let lowPool = ["", "a", "é", "e\u{301}", "x,y", "q\"uote", "line\nfeed", "Zed", "m"]

  static func randomTable(_ random: inout SeededRandom, rows: Int) -> Table {
    func pick(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }
    var low: [String?] = [], high: [String?] = [], key: [String?] = [], n: [Int64?] = [], x: [Double?] = []
    for _ in 0..<rows {
      low.append(pick(0..<12) == 0 ? nil : lowPool[pick(0..<lowPool.count)])
      high.append(pick(0..<15) == 0 ? nil : "s\(pick(0..<100_000))" + (pick(0..<9) == 0 ? ",\"\n\u{301}" : ""))
      key.append(pick(0..<20) == 0 ? nil : "k\(pick(0..<25))")
      n.append(pick(0..<10) == 0 ? nil : Int64(pick(-40..<40)))
      x.append(pick(0..<10) == 0 ? nil : Double(pick(-10_000..<10_000)) / 8)
    }
    return try! Table([
      ("low", .strings(low)), ("high", .strings(high)), ("key", .strings(key)), ("n", .integers(n)), ("x", .numbers(x))
    ])
  }

  /// `table` with every string column in the dictionary layout (the same strings).
  static func encoded(_ table: Table) -> Table {
    let columns = table.columns.map { column -> Column in
      guard case .string(let strings) = column.storage else { return column }
      return Column(.string(strings.dictionaryEncoded(limit: 1 << 20)!), validity: column.validity)
    }
    return try! Table(names: table.columnNames, columns: columns, rowCount: table.rowCount)
  }

  /// The written forms of `table`: CSV bytes and JSON rows.
  static func written(_ table: Table) throws -> ([UInt8], JSONValue) {
    (try CSVWriter().bytes(of: table), table.jsonRows)
  }

  struct Case {
    let kind: String
    let params: JSONObject
    var pair = false
  }

  static func cases() -> [Case] {
    var list: [Case] = []
    let groupAggregates: JSONObject = [
      "c": "count()", "s": "sum(x)", "lo": "min(high)", "hi": "max(low)", "f": "first(high)", "k": "countDistinct(key)"
    ]
    list.append(Case(kind: "groupBy", params: ["by": ["low"], "aggregate": .object(groupAggregates)]))
    list.append(Case(kind: "groupBy", params: ["by": ["low", "key"], "aggregate": ["c": "count()", "t": "sum(n)"]]))
    list.append(Case(kind: "groupBy", params: ["by": ["high"], "aggregate": ["c": "count()"]]))
    list.append(Case(kind: "distinct", params: ["columns": ["low"]]))
    list.append(Case(kind: "distinct", params: ["columns": ["key", "low"]]))
    list.append(Case(kind: "distinct", params: [:]))
    let filters: [String] = [
      "low == \"a\"", "low != \"x,y\"", "low < \"m\"", "low >= \"e\"", "low in (\"a\", \"Zed\", \"\", \"e\u{301}\")",
      "isNull(low) or key == \"k3\"", "high > \"s5\" and low <= key"
    ]
    for formula in filters { list.append(Case(kind: "filter", params: ["where": .string(formula)])) }
    list.append(Case(kind: "sort", params: ["by": ["low", "-key", "n"]]))
    list.append(Case(kind: "sort", params: ["by": ["-low", "high"]]))
    list.append(Case(kind: "limit", params: ["count": 7]))
    list.append(Case(kind: "select", params: ["columns": ["key as k2", "low"]]))
    let derived: JSONObject = [
      "u": "upper(low)", "r": "replace(key, \"k\", \"K\")", "both": "if(isNull(low), key, low)", "l": "len(low)"
    ]
    list.append(Case(kind: "derive", params: ["columns": .object(derived)]))
    list.append(Case(kind: "union", params: [:], pair: true))
    for how in ["inner", "left", "right", "full", "semi", "anti"] {
      list.append(Case(kind: "join", params: ["on": ["key"], "how": .string(how)], pair: true))
      list.append(Case(kind: "join", params: ["on": ["low", "key"], "how": .string(how)], pair: true))
    }
    return list
  }

  @Test func everyKindGivesTheSameOutputOnDictionaryAndFlatColumnsAtOneTwoAndSevenWorkers() throws {
    var random = SeededRandom(seed: 18)
    for round in 0..<2 {
      let left = Self.randomTable(&random, rows: 600 + round * 1_501)
      let right = try Self.randomTable(&random, rows: 120 + round * 97).selecting([2, 0, 4, 1])
      let (encodedLeft, encodedRight) = (Self.encoded(left), Self.encoded(right))
      #expect(encodedLeft.columns.allSatisfy { $0.type != .string || $0.isDictionaryEncoded })
      #expect(encodedLeft == left)
      #expect(try Self.written(encodedLeft) == Self.written(left))
      for testCase in Self.cases() {
        let (kind, params, pair) = (testCase.kind, testCase.params, testCase.pair)
        let inputs: [Value] = pair ? [.table(left), .table(kind == "union" ? left : right)] : [.table(left)]
        let reference = try KindHarness.table(kind, params, inputs, workers: 1)
        // Either side encoded, or both (a join probes a dictionary against a flat build side).
        let variants: [[Value]] =
          pair
          ? [
            [.table(encodedLeft), .table(kind == "union" ? encodedLeft : encodedRight)],
            [.table(encodedLeft), .table(kind == "union" ? left : right)],
            [.table(left), .table(kind == "union" ? encodedLeft : encodedRight)]
          ]
          : [[.table(encodedLeft)]]
        for variant in variants {
          for workers in [1, 2, 7] {
            let output = try KindHarness.table(kind, params, variant, workers: workers)
            #expect(output == reference, "round \(round), \(kind) \(params), \(workers) workers")
            #expect(try Self.written(output) == Self.written(reference), "round \(round), \(kind) \(params): written")
          }
        }
      }
    }
  }

  @Test func gatheringKindsKeepTheDictionary() throws {
    var random = SeededRandom(seed: 3)
    let table = Self.encoded(Self.randomTable(&random, rows: 800))
    for (kind, params) in [
      ("filter", ["where": "low < \"m\""]), ("sort", ["by": ["low"]]), ("limit", ["count": 10]),
      ("select", ["columns": ["low"]])
    ] as [(String, JSONObject)] {
      let output = try KindHarness.table(kind, params, [.table(table)])
      #expect(output.column(named: "low")!.isDictionaryEncoded, "\(kind)")
    }
  }

  static func csv(rows: Int, _ random: inout SeededRandom) -> [UInt8] {
    var text = "flag,id,city,amount\n"
    let cities = ["Zürich", "\"Saint-Denis, Réunion\"", "\"two\nlines\"", "", "Oslo"]
    for row in 0..<rows {
      let flag = ["A", "N", "R"][Int.random(in: 0..<3, using: &random)]
      text += "\(flag),id\(row),\(cities[Int.random(in: 0..<cities.count, using: &random)]),\(row % 97)\n"
    }
    return Array(text.utf8)
  }

  static func read(_ bytes: [UInt8], workers: Int, encoding: Bool) throws -> Table {
    var reader = CSVReader()
    reader.strategy.encodesDictionaries = encoding
    reader.workers = workers
    reader.blockBytesPerWorker = 64 << 10
    reader.parallelThreshold = workers == 1 ? Int.max : 0
    reader.minimumChunkBytes = 1
    return try reader.read(bytes)
  }

  @Test func theReaderEncodesLowCardinalityColumnsAndLeavesHighCardinalityOnesFlat() throws {
    var random = SeededRandom(seed: 11)
    let bytes = Self.csv(rows: 12_000, &random)
    let flat = try Self.read(bytes, workers: 1, encoding: false)
    #expect(!flat.column(named: "flag")!.isDictionaryEncoded)
    var codes: [[UInt32]] = []
    for workers in [1, 2, 7] {
      let table = try Self.read(bytes, workers: workers, encoding: true)
      #expect(table == flat, "\(workers) workers")
      #expect(try CSVWriter().bytes(of: table) == CSVWriter().bytes(of: flat))
      guard case .string(let flags) = table.column(named: "flag")!.storage,
        case .string(let cities) = table.column(named: "city")!.storage,
        case .string(let ids) = table.column(named: "id")!.storage
      else { Issue.record("not strings"); continue }
      #expect(flags.dictionary?.count == 3, "\(workers) workers: three flags, one entry each")
      #expect(cities.isDictionaryEncoded, "\(workers) workers: quoted, escaped and null cells encode too")
      #expect(!ids.isDictionaryEncoded, "\(workers) workers: a distinct id per row stays flat")
      // Codes follow the first appearance in the file, whatever the chunks.
      codes.append(flags.codes ?? [])
      var firstSeen: [String] = []
      for row in 0..<table.rowCount where !firstSeen.contains(flags[row]) { firstSeen.append(flags[row]) }
      #expect((0..<3).map { flags.dictionary![$0] } == firstSeen)
    }
    #expect(codes.allSatisfy { $0 == codes[0] })
  }

  @Test func layoutsCompareAndHashByValue() {
    let strings = ["b", "", "é", "e\u{301}", "b", "long string, with a comma"]
    let flat = StringColumn(strings)
    let dictionary = flat.dictionaryEncoded()!
    #expect(dictionary.isDictionaryEncoded && dictionary.dictionary!.count == 5)
    #expect(flat == dictionary && dictionary == flat)
    #expect(flat.hashValue == dictionary.hashValue)
    #expect(Set([flat, dictionary]).count == 1)
    #expect(dictionary.bytes == flat.bytes && dictionary.offsets == flat.offsets)
    #expect((0..<strings.count).map { dictionary[$0] } == strings)
    // Precomposed and decomposed "é" stay apart (Unicode scalars, not canonical equivalence).
    #expect(StringColumn(["é"]) != StringColumn(["e\u{301}"]).dictionaryEncoded()!)
    #expect(StringColumn(["b", "a"]) != dictionary)
    // Gathering keeps the layout; -1 rows give the empty string.
    let gathered = dictionary.gathering([5, -1, 0, 2])
    #expect(gathered.isDictionaryEncoded && gathered == StringColumn([strings[5], "", "b", "é"]))
    #expect(StringColumn(["x"]).dictionaryEncoded()!.gathering([-1, 0]) == StringColumn(["", "x"]))
    // Concatenation merges dictionaries in order; a flat part makes the result flat.
    let merged = StringColumn.concatenating([dictionary, StringColumn(["z", "b"]).dictionaryEncoded()!])
    #expect(merged.isDictionaryEncoded && merged == StringColumn(strings + ["z", "b"]))
    #expect(merged.dictionary!.count == 6)
    let mixed = StringColumn.concatenating([dictionary, StringColumn(["z"])])
    #expect(!mixed.isDictionaryEncoded && mixed == StringColumn(strings + ["z"]))
    // Appending to a dictionary column makes it flat, with the same strings.
    var appended = dictionary
    appended.append("q")
    #expect(!appended.isDictionaryEncoded && appended == StringColumn(strings + ["q"]))
    // Columns with nulls compare by cells across layouts, and the memory estimate counts codes.
    let cells: [String?] = ["a", nil, "a", "b"]
    let column = Column.strings(cells)
    guard case .string(let values) = column.storage else { return }
    let encoded = Column(.string(values.dictionaryEncoded()!), validity: column.validity)
    #expect(encoded == column)
    #expect(values.dictionaryEncoded()!.storageBytes == 2 + 4 * 8 + 4 * 4)  // "a", "" (the null), "b": 3 entries
  }

  @Test func aFullDictionaryBuilderRefusesNewStringsButFindsOldOnes() {
    var builder = StringDictionaryBuilder(limit: 2)
    #expect(builder.code(of: Array("a".utf8)[...]) == 0)
    #expect(builder.code(of: Array("bb".utf8)[...]) == 1)
    #expect(builder.code(of: Array("c".utf8)[...]) == nil)
    #expect(builder.code(of: Array("bb".utf8)[...]) == 1)
    var large = StringDictionaryBuilder(limit: 100_000)
    for value in 0..<5_000 { #expect(large.code(of: Array("v\(value)".utf8)[...]) == UInt32(value)) }
    for value in stride(from: 4_999, through: 0, by: -7) {
      #expect(large.code(of: Array("v\(value)".utf8)[...]) == UInt32(value))
    }
    #expect(large.count == 5_000)
  }

  /// One-byte strings take a direct table instead of the hash: the codes are the same as a
  /// reference map's, in order of first appearance, mixed with longer strings and the empty one.
  @Test func oneByteStringsGetTheSameCodesAsThroughTheHash() {
    var state: UInt64 = 0x5EED
    func next() -> Int {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return Int(truncatingIfNeeded: state >> 33)
    }
    var builder = StringDictionaryBuilder(limit: 100_000)
    var reference: [[UInt8]: UInt32] = [:]
    for _ in 0..<5_000 {
      let length = next() % 3  // 0, 1 or 2 bytes: every one-byte string shows up, some twice
      let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: next()) }
      let expected = reference[bytes] ?? UInt32(reference.count)
      reference[bytes] = expected
      #expect(builder.code(of: bytes[...]) == expected)
    }
    #expect(builder.count == reference.count)
  }
}
