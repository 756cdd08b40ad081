import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `groupBy`'s sums by blocks (`BlockSums`): the kernel at 1, 2 and 7 workers and the streamed
/// `groupBy` (random morsel sizes, 1, 2 and 7 workers) give the same table bit for bit, equal
/// to a plain reference of the definition (a Neumaier sum per group per block of rows, folded
/// in block order), on random tables with nulls: integer, number (NaN, -0) and string keys,
/// few and many groups, sums that cancel, exact integer sums near the Int64 limits, and
/// overflows named by the same group whatever the thread count. Small blocks, so small tables
/// span many.
@Suite(.serialized) struct BlockSumsPropertyTests {
  static func table(_ random: inout SeededRandom, rows: Int, groups: Int, bigs: Bool) throws -> Table {
    func maybe<T>(_ value: T) -> T? { Int.random(in: 0..<8, using: &random) == 0 ? nil : value }
    let specials: [Double] = [0.0, -0.0, .nan, 1e16, -1e16, 0.1, 2.3]
    let magnitudes: [Double] = [1e-3, 1, 1e6, 1e15]
    var ints: [Int64?] = [], reals: [Double?] = [], words: [String?] = [], values: [Double?] = [],
      integers: [Int64?] = []
    for _ in 0..<rows {
      let group = Int.random(in: 0..<groups, using: &random)
      ints.append(maybe(Int64(group)))
      reals.append(maybe(group % 5 == 0 ? specials[group % specials.count] : Double(group) / 4))
      words.append(maybe(["a", "ü", "u\u{308}", "", "日本"][group % 5] + String(group / 5)))
      let value: Double
      switch Int.random(in: 0..<4, using: &random) {
      case 0: value = specials[Int.random(in: 0..<specials.count, using: &random)]
      case 1: value = Bool.random(using: &random) ? 1e16 : -1e16  // sums that cancel
      default: value = Double.random(in: -1...1, using: &random) * magnitudes[Int.random(in: 0..<4, using: &random)]
      }
      values.append(maybe(value))
      integers.append(
        maybe(
          bigs
            ? Int64.random(in: (Int64.max / 4)...Int64.max, using: &random) * (Bool.random(using: &random) ? 1 : -1)
            : Int64.random(in: -1_000...1_000, using: &random)))
    }
    return try Table([
      ("i", .integers(ints)), ("r", .numbers(reals)), ("w", .strings(words)), ("v", .numbers(values)),
      ("n", .integers(integers))
    ])
  }

  /// A key cell as the kernel compares it (strings by their bytes, -0 as 0, one NaN).
  static func keyText(_ column: Column, _ row: Int) -> String {
    if column.isNull(row) { return "null" }
    switch column.storage {
    case .integer(let values): return "i\(values[row])"
    case .number(let values): return "d\(ColumnCodes.normalized(values[row]))"
    case .bool(let values): return "b\(values[row])"
    case .string(let strings): return "s" + Array(strings.utf8(row)).map(String.init).joined(separator: ",")
    }
  }

  /// The definition, plainly: groups in order of first appearance; per group a `NeumaierSum`
  /// per block of `blockRows` rows; the block sums folded in block order.
  static func reference(_ table: Table, by: [String], column: String, blockRows: Int, mean: Bool) -> [UInt64?] {
    let keys = by.map { table.column(named: $0)! }, values = table.column(named: column)!
    var index: [[String]: Int] = [:]
    var blocks: [[Int: NeumaierSum]] = [], counts: [Int] = []
    for row in 0..<table.rowCount {
      let key = keys.map { keyText($0, row) }
      let group = index[key] ?? blocks.count
      if group == blocks.count {
        index[key] = group
        blocks.append([:])
        counts.append(0)
      }
      guard let value = values.number(at: row) else { continue }
      blocks[group][row / blockRows, default: NeumaierSum()].add(value)
      counts[group] += 1
    }
    if by.isEmpty && blocks.isEmpty { blocks.append([:]); counts.append(0) }
    return blocks.indices.map { group in
      guard counts[group] > 0 else { return nil }
      var sum = 0.0, error = 0.0
      for block in blocks[group].keys.sorted() {
        let part = blocks[group][block]!
        let next = sum + part.sum
        error += NeumaierSum.error(of: sum, plus: part.sum, giving: next) + part.compensation
        sum = next
      }
      let total = NeumaierSum.total(sum, error)
      return (mean ? total / Double(counts[group]) : total).bitPattern
    }
  }

  static let aggregateTexts: [(String, String)] = [
    ("c", "count()"), ("s", "sum(v)"), ("m", "mean(v)"), ("sn", "sum(n)"), ("mn", "mean(n)"), ("lo", "min(v)"),
    ("hi", "max(w)"), ("f", "first(v)"), ("l", "last(n)")
  ]

  static func aggregates() throws -> [Aggregate] {
    try aggregateTexts.map { try Aggregate.parse(output: $0.0, $0.1).get() }
  }

  /// The kernel's table, or its error message.
  static func kernel(_ table: Table, by: [String], blockRows: Int, workers: Int) throws -> Result<Table, NodeError> {
    let evaluator = GroupByNode.Evaluator(
      keys: by, aggregates: try aggregates(), workers: workers, blockRows: blockRows)
    do {
      guard case .table(let result) = try evaluator.evaluate([.table(table)], outputCount: 1)[0] else {
        return .failure(NodeError("not a table"))
      }
      return .success(result)
    } catch let error as NodeError {
      return .failure(error)
    } catch {
      return .failure(NodeError("\(error)"))
    }
  }

  /// The streamed table in random morsels, or `nil` if the stream gives up (an integer sum out of range).
  static func streamed(_ table: Table, by: [String], blockRows: Int, workers: Int, _ random: inout SeededRandom) throws
    -> Table?
  {
    var stream = GroupByStream(keys: by, aggregates: try aggregates(), blockRows: blockRows)
    var start = 0
    while start < table.rowCount {
      let end = min(table.rowCount, start + Int.random(in: 1...(blockRows * 4), using: &random))
      try stream.add(table.slice(start..<end), workers: workers)
      start = end
    }
    return try? stream.result()
  }

  static func bits(_ table: Table) -> [[String]] {
    (0..<table.columnCount).map { column in
      (0..<table.rowCount).map { row in
        let cell = table.cell(row: row, column: column)
        if case .number(let x) = cell { return "\(x.bitPattern)" }
        return "\(cell)"
      }
    }
  }

  @Test func kernelAndStreamAtAnyWorkerCountAreTheDefinition() throws {
    let byChoices: [[String]] = [[], ["i"], ["r"], ["w"], ["w", "i"], ["r", "w"]]
    var overflows = 0, sums = 0
    for round in 0..<24 {
      var random = SeededRandom(seed: UInt64(round) &* 7_919 &+ 5)
      let blockRows = [7, 16, 64, 100][round % 4]
      let groups = [1, 3, 40, 400][Int.random(in: 0..<4, using: &random)]
      let table = try Self.table(
        &random, rows: Int.random(in: 0...(blockRows * 12), using: &random), groups: groups,
        bigs: round % 3 == 2)
      let by = byChoices[round % byChoices.count]
      let serial = try Self.kernel(table, by: by, blockRows: blockRows, workers: 1)
      for workers in [2, 7] {
        let parallel = try Self.kernel(table, by: by, blockRows: blockRows, workers: workers)
        switch (serial, parallel) {
        case (.success(let a), .success(let b)):
          #expect(Self.bits(a) == Self.bits(b), "round \(round), \(workers) workers")
        case (.failure(let a), .failure(let b)): #expect(a.message == b.message, "round \(round), \(workers) workers")
        default: Issue.record("round \(round), \(workers) workers: \(serial) vs \(parallel)")
        }
      }
      for workers in [1, 2, 7] {
        let stream = try Self.streamed(table, by: by, blockRows: blockRows, workers: workers, &random)
        switch serial {
        case .success(let expected):
          #expect(stream.map(Self.bits) == Self.bits(expected), "round \(round), streamed at \(workers) workers")
        case .failure:
          #expect(stream == nil, "round \(round): the stream gives up where the kernel fails")
        }
      }
      guard case .success(let result) = serial else {
        overflows += 1
        continue
      }
      for (name, column, mean) in [("s", "v", false), ("m", "v", true), ("mn", "n", true)] {
        let expected = Self.reference(table, by: by, column: column, blockRows: blockRows, mean: mean)
        let got = result.column(named: name)!
        #expect((0..<got.count).map { got.number(at: $0)?.bitPattern } == expected, "round \(round) \(name)")
        sums += 1
      }
    }
    #expect(overflows > 0 && sums > 0, "both outcomes: \(overflows) overflows")
  }

  @Test func overflowNamesTheSameGroupAtAnyWorkerCount() throws {
    // Two groups overflow, in blocks summed on different workers: the first group is named.
    let keys: [String?] = (0..<400).map { $0 < 200 ? "a" : ($0 % 2 == 0 ? "b" : "c") }
    let values: [Int64?] = (0..<400).map { $0 < 200 ? -1 : ($0 % 2 == 0 ? Int64.max / 50 : Int64.max / 40) }
    let table = try Table([
      ("w", .strings(keys)), ("n", .integers(values)), ("v", .numbers(values.map { $0.map(Double.init) })),
      ("i", .integers(values))
    ])
    var messages: Set<String> = []
    for workers in [1, 2, 7] {
      guard case .failure(let error) = try Self.kernel(table, by: ["w"], blockRows: 16, workers: workers) else {
        Issue.record("\(workers) workers: no overflow")
        continue
      }
      messages.insert(error.message)
    }
    #expect(messages == [#"sn: sum(n) does not fit in a 64-bit integer in the group w = "b" (integer sums are exact)"#])
  }

  @Test func manyGroupsFoldTheTouchedGroupsOnly() throws {
    // Past `BlockSums.foldAllGroups` groups, blocks fold the groups they touched: the same bits.
    var random = SeededRandom(seed: 99)
    let rows = BlockSums.foldAllGroups * 3, blockRows = 1_000
    let table = try Self.table(&random, rows: rows, groups: BlockSums.foldAllGroups + 2_000, bigs: false)
    let serial = try Self.kernel(table, by: ["i"], blockRows: blockRows, workers: 1).get()
    #expect(serial.rowCount > BlockSums.foldAllGroups)
    #expect(Self.bits(try Self.kernel(table, by: ["i"], blockRows: blockRows, workers: 7).get()) == Self.bits(serial))
    #expect(
      try Self.streamed(table, by: ["i"], blockRows: blockRows, workers: 2, &random).map(Self.bits) == Self.bits(serial)
    )
    let expected = Self.reference(table, by: ["i"], column: "v", blockRows: blockRows, mean: false)
    let got = serial.column(named: "s")!
    #expect((0..<got.count).map { got.number(at: $0)?.bitPattern } == expected)
  }

  @Test func oneBlockIsOnePlainNeumaierSum() throws {
    // The 828 of Reference.md, "Values and types": within one block the sum is one running compensated sum in row order.
    let year = CompensatedSumTests.year
    let table = try Table([
      ("g", .strings(Array(repeating: "a", count: year.count))), ("v", .numbers(year)),
      ("n", .integers(Array(repeating: 1, count: year.count))),
      ("w", .strings(Array(repeating: "x", count: year.count)))
    ])
    for blockRows in [BlockSums.standardBlockRows, 7] {
      let result = try Self.kernel(table, by: ["g"], blockRows: blockRows, workers: 2).get()
      #expect(result.column(named: "s")![0] == .number(828), "blocks of \(blockRows)")
    }
  }
}
