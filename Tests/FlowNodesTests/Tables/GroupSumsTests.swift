import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `groupBy`'s `sum` and `mean` over several row blocks (`GroupSums`): at 1, 2 and 7 workers,
/// and streamed in random morsels, the same bits as a plain reference of the definition (a
/// Neumaier sum per group per block of `GroupSums.blockRows` rows, the block sums folded in
/// block order), on random tables with nulls, few or many groups, and values of mixed
/// magnitudes (where the order of the additions shows in the last bits).
@Suite(.serialized) struct GroupSumsTests {
  static func table(_ random: inout SeededRandom, rows: Int, groups: Int) throws -> Table {
    var keys: [Int64?] = [], values: [Double?] = [], integers: [Int64?] = []
    let magnitudes: [Double] = [1e-3, 1, 1e6, 1e15]
    for _ in 0..<rows {
      keys.append(Int.random(in: 0..<50, using: &random) == 0 ? nil : Int64.random(in: 0..<Int64(groups), using: &random))
      let magnitude = magnitudes[Int.random(in: 0..<magnitudes.count, using: &random)]
      values.append(Int.random(in: 0..<12, using: &random) == 0 ? nil : Double.random(in: -1...1, using: &random) * magnitude)
      integers.append(Int.random(in: 0..<12, using: &random) == 0 ? nil : Int64.random(in: -1_000...1_000, using: &random))
    }
    return try Table([("k", .integers(keys)), ("v", .numbers(values)), ("n", .integers(integers))])
  }

  /// The definition, plainly: per group, a `NeumaierSum` per block; the blocks folded in order.
  static func reference(_ table: Table, mean: Bool, column: String) -> [Double?] {
    let keys = table.column(named: "k")!, values = table.column(named: column)!
    var order: [Value] = [], index: [Value: Int] = [:]
    var blocks: [[Int: NeumaierSum]] = []
    var counts: [Int] = []
    for row in 0..<table.rowCount {
      let key = keys[row]
      let group: Int
      if let known = index[key] { group = known } else {
        group = order.count
        index[key] = group
        order.append(key)
        blocks.append([:])
        counts.append(0)
      }
      guard let value = values.number(at: row) else { continue }
      blocks[group][row / GroupSums.blockRows, default: NeumaierSum()].add(value)
      counts[group] += 1
    }
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
      return mean ? total / Double(counts[group]) : total
    }
  }

  static func bits(_ column: Column) -> [UInt64?] { (0..<column.count).map { column.number(at: $0)?.bitPattern } }

  @Test func blockSumsAreTheDefinitionAtAnyWorkerCountAndStreamed() throws {
    let params: JSONObject = ["by": ["k"], "aggregate": ["s": "sum(v)", "m": "mean(v)", "mn": "mean(n)", "c": "count()"]]
    for round in 0..<4 {
      var random = SeededRandom(seed: UInt64(round) &* 7_919 &+ 3)
      let rows = GroupSums.blockRows * 2 + Int.random(in: 1..<GroupSums.blockRows, using: &random)
      let table = try Self.table(&random, rows: rows, groups: [3, 40, 4_000, 50_000][round])
      let expected = [("s", Self.reference(table, mean: false, column: "v")), ("m", Self.reference(table, mean: true, column: "v")),
                      ("mn", Self.reference(table, mean: true, column: "n"))]
      // One aggregate: its blocks on every worker; four: an aggregate per worker.
      let alone: JSONObject = ["by": ["k"], "aggregate": ["s": "sum(v)"]]
      for workers in [1, 2, 7] {
        let result = try ParallelKernelTests.atWorkers(workers) { try KindHarness.table("groupBy", params, [.table(table)]) }
        for (name, reference) in expected {
          #expect(Self.bits(result.column(named: name)!) == reference.map { $0?.bitPattern }, "round \(round), \(workers) workers, \(name)")
        }
        let single = try ParallelKernelTests.atWorkers(workers) { try KindHarness.table("groupBy", alone, [.table(table)]) }
        #expect(Self.bits(single.column(named: "s")!) == expected[0].1.map { $0?.bitPattern }, "round \(round), \(workers) workers alone")
      }
      // Streamed in random morsels: the same bits.
      var parsed: [Aggregate] = []
      for member in params["aggregate"]!.objectValue!.members {
        parsed.append(try Aggregate.parse(output: member.key, member.value.stringValue!).get())
      }
      var stream = GroupByStream(keys: ["k"], aggregates: parsed)
      var start = 0
      while start < table.rowCount {
        let end = min(table.rowCount, start + Int.random(in: 1...40_000, using: &random))
        try stream.add(table.slice(start..<end))
        start = end
      }
      let streamed = try stream.result()
      for (name, reference) in expected {
        #expect(Self.bits(streamed.column(named: name)!) == reference.map { $0?.bitPattern }, "round \(round), streamed, \(name)")
      }
    }
  }

  @Test func oneBlockIsTheSingleRunningSum() {
    var sums = GroupSums()
    sums.grow(to: 1)
    var plain = NeumaierSum()
    for step in 0..<365 {
      sums.add(2.3, group: 0, row: step)
      plain.add(2.3)
    }
    #expect(sums.column(mean: false).number(at: 0) == plain.value)
  }
}
