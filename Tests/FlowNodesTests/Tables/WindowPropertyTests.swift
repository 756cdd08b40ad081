import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `window` against `WindowReference` over seeded random tables: random partitions (null keys
/// included), random `orderBy` keys with ties, nulls and descending entries, and every window
/// function over columns of each type, one entry reading a column an earlier entry added.
@Suite struct WindowPropertyTests {
  /// A random table: partition keys `p` (integer) and `q` (string), order keys `o` (integer,
  /// few values: ties) and `x` (number, multiples of 1/4), `i` (integer), `b` (bool), `s`
  /// (string); about one null in five.
  static func table(rows: Int, _ random: inout SeededRandom) throws -> Table {
    func maybe<T>(_ make: () -> T) -> T? { Int.random(in: 0..<5, using: &random) == 0 ? nil : make() }
    return try Table([
      (name: "p", column: .integers((0..<rows).map { _ in maybe { Int64.random(in: 0..<3, using: &random) } })),
      (name: "q", column: .strings((0..<rows).map { _ in maybe { ["a", "é", "B"].randomElement(using: &random)! } })),
      (name: "o", column: .integers((0..<rows).map { _ in maybe { Int64.random(in: 0..<4, using: &random) } })),
      (
        name: "x",
        column: .numbers((0..<rows).map { _ in maybe { Double(Int.random(in: -32...32, using: &random)) / 4 } })
      ),
      (name: "i", column: .integers((0..<rows).map { _ in maybe { Int64.random(in: -9...9, using: &random) } })),
      (name: "b", column: .bools((0..<rows).map { _ in maybe { Bool.random(using: &random) } })),
      (
        name: "s",
        column: .strings((0..<rows).map { _ in maybe { ["", "a", "ab", "b", "Z"].randomElement(using: &random)! } })
      )
    ])
  }

  /// Functions reading a column, with the columns each may read.
  static let reading: [(name: String, columns: [String])] = [
    ("lag", ["x", "i", "b", "s"]), ("lead", ["x", "i", "b", "s"]),
    ("cumsum", ["x", "i", "b"]), ("cummean", ["x", "i", "b"]), ("cummin", ["x", "i", "b", "s"]),
    ("cummax", ["x", "i", "s"]),
    ("rollingSum", ["x", "i", "b"]), ("rollingMean", ["x", "i"]), ("rollingMin", ["x", "i", "s"]),
    ("rollingMax", ["x", "i", "s"]),
    ("sum", ["x", "i", "b"]), ("mean", ["x", "i", "b"]), ("min", ["x", "i", "s"]), ("max", ["x", "i", "b", "s"]),
    ("first", ["x", "s"]), ("last", ["i", "b"]), ("count", ["x", "s"])
  ]

  @Test(arguments: 0..<300)
  func everyFunctionMatchesAReferenceLoop(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let table = try Self.table(rows: Int.random(in: 0...40, using: &random), &random)
    let partitionBy = Array(["p", "q"].shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
    let orderBy = Array(["o", "x", "s", "b"].shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
      .map { ($0, Bool.random(using: &random)) }
    // Entries: the functions without a column, then each reading function on a random column.
    var entries: [(output: String, name: String, column: String?, n: Int, fallback: Value)] = [
      ("rn", "rowNumber", nil, 1, .null), ("rk", "rank", nil, 1, .null), ("dr", "denseRank", nil, 1, .null),
      ("cc", "cumcount", nil, 1, .null), ("ct", "count", nil, 1, .null)
    ]
    for (index, function) in Self.reading.enumerated() {
      let column = function.columns.randomElement(using: &random)!
      let n =
        function.name.hasPrefix("rolling")
        ? Int.random(in: 1...5, using: &random) : Int.random(in: 0...3, using: &random)
      let fallback: Value =
        ["lag", "lead"].contains(function.name) && column == "i" && Bool.random(using: &random) ? .integer(-100) : .null
      entries.append(("f\(index)", function.name, column, n, fallback))
    }
    // An entry that reads one added before it.
    entries.append(("later", "cumsum", "rn", 1, .null))
    var columns: [JSONMember] = []
    for entry in entries {
      var arguments = entry.column.map { [$0] } ?? []
      if entry.name == "lag" || entry.name == "lead" || entry.name.hasPrefix("rolling") {
        arguments.append("\(entry.n)")
      }
      if entry.fallback != .null { arguments.append("-100") }
      columns.append(
        JSONMember(key: entry.output, value: .string("\(entry.name)(\(arguments.joined(separator: ", ")))")))
    }
    let params: JSONObject = [
      "partitionBy": .array(partitionBy.map { .string($0) }),
      "orderBy": .array(orderBy.map { .string(($0.1 ? "-" : "") + $0.0) }),
      "columns": .object(JSONObject(columns))
    ]
    let output = try KindHarness.table("window", params, [.table(table)])
    // The reference: every row's value from its partition.
    var expected = KindHarness.rows(table)
    var extended = table
    for entry in entries {
      var cells = [Value](repeating: .null, count: table.rowCount)
      for part in WindowReference.partitions(table, by: partitionBy, order: orderBy) {
        for k in part.indices {
          cells[part[k]] = WindowReference.value(
            entry.name, column: entry.column, n: entry.n, fallback: entry.fallback,
            at: k, of: part, table: extended, orderBy: orderBy)
        }
      }
      for row in cells.indices { expected[row].append(cells[row]) }
      if entry.output == "rn" { extended = try extended.settingColumn("rn", to: try Column(values: cells)) }
    }
    #expect(output.columnNames == table.columnNames + entries.map(\.output), "seed \(seed)")
    let rows = KindHarness.rows(output)
    for (row, cells) in expected.enumerated() {
      for (column, cell) in cells.enumerated() where rows[row][column] != cell {
        let entry = column >= 7 ? "\(entries[column - 7])" : ""
        Issue.record(
          "seed \(seed): \(output.columnNames[column]) (\(entry)) row \(row): \(rows[row][column]) != \(cell); partitionBy \(partitionBy) orderBy \(orderBy)"
        )
        return
      }
    }
  }

  @Test(arguments: [1, 3, 8])
  func theTableIsTheSameAtAnyWorkerCount(workers: Int) throws {
    var random = SeededRandom(seed: 7)
    let rows = 70_000
    let table = try Table([
      (name: "k", column: .integers((0..<rows).map { _ in Int64.random(in: 0..<500, using: &random) })),
      (name: "t", column: .integers((0..<rows).map { _ in Int64.random(in: 0..<100, using: &random) })),
      (
        name: "x",
        column: .numbers(
          (0..<rows).map { _ in
            Int.random(in: 0..<9, using: &random) == 0 ? nil : Double.random(in: -1...1, using: &random)
          })
      )
    ])
    let params: JSONObject = [
      "partitionBy": ["k"], "orderBy": ["-t"],
      "columns": [
        "r": "rank()", "l": "lag(x)", "c": "cumsum(x)", "m": "rollingMean(x, 7)", "lo": "rollingMin(x, 5)",
        "s": "sum(x)"
      ]
    ]
    let serial = try KindHarness.table("window", params, [.table(table)], workers: 1)
    let parallel = try KindHarness.table("window", params, [.table(table)], workers: workers)
    #expect(serial == parallel)
  }
}
