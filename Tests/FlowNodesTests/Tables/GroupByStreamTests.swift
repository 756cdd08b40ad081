import FlowGraph
@testable import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

/// `GroupByStream` (a streamed chain's `groupBy`) against the `groupBy` kernel: random tables
/// with nulls, NaN, -0.0 and +0.0 keys, Unicode strings and integers near overflow, cut into
/// random morsels, give the kernel's table bit for bit (or fail where it fails: an integer sum out of range) (same groups in the same order, same
/// sums to the last bit, same picks on ties).
@Suite struct GroupByStreamTests {
  static func table(_ random: inout SeededRandom, rows: Int, nulls: Bool = true) throws -> Table {
    func maybe<T>(_ value: T) -> T? { nulls && Int.random(in: 0..<6, using: &random) == 0 ? nil : value }
    let words = ["a", "b", "ü", "u\u{308}", "日本", ""]
    let numbers: [Double] = [0.0, -0.0, .nan, 0.1, 2.3, -7.25, 1e300, .infinity]
    let signedBigs = Bool.random(using: &random)
    var keys: [String?] = [], codes: [Int64?] = [], flags: [Bool?] = [], reals: [Double?] = [], bigs: [Int64?] = [],
      small: [Int64?] = []
    for _ in 0..<rows {
      keys.append(maybe(words[Int.random(in: 0..<words.count, using: &random)]))
      codes.append(maybe(Int64.random(in: 0...3, using: &random)))
      flags.append(maybe(Bool.random(using: &random)))
      let real =
        Bool.random(using: &random)
        ? numbers[Int.random(in: 0..<numbers.count, using: &random)] : Double.random(in: -1e3...1e3, using: &random)
      reals.append(maybe(real))
      // Near overflow: all positive (sums past Int64, an error) or of both signs (wraps
      // that may cancel, an exact sum).
      bigs.append(maybe(Int64.random(in: (signedBigs ? -(1 << 62) : 1 << 60)...(1 << 62), using: &random)))
      small.append(maybe(Int64.random(in: -9...9, using: &random)))
    }
    return try Table([
      ("key", .strings(keys)), ("code", .integers(codes)), ("flag", .bools(flags)), ("real", .numbers(reals)),
      ("big", .integers(bigs)), ("small", .integers(small))
    ])
  }

  @Test func streamedAggregatesAreTheKernels() throws {
    let byChoices: [[String]] = [[], ["key"], ["code"], ["flag"], ["real"], ["key", "code"], ["real", "flag", "key"]]
    let aggregates: JSONObject = [
      "n": .string("count()"), "sumSmall": .string("sum(small)"), "sumBig": .string("sum(big)"),
      "sumReal": .string("sum(real)"),
      "meanReal": .string("mean(real)"), "meanSmall": .string("mean(small)"), "minKey": .string("min(key)"),
      "maxReal": .string("max(real)"), "minReal": .string("min(real)"), "maxFlag": .string("max(flag)"),
      "firstKey": .string("first(key)"), "lastReal": .string("last(real)"), "maxBig": .string("max(big)")
    ]
    var overflows = 0
    // Seeds past 60: no nulls, so the sums of several aggregates go in one pass (and `sum`
    // and `mean` of one column share it).
    for seed in 0..<UInt64(90) {
      var random = SeededRandom(seed: seed &* 104_729 &+ 11)
      let table = try Self.table(&random, rows: Int.random(in: 1...300, using: &random), nulls: seed < 60)
      let by = byChoices[Int.random(in: 0..<byChoices.count, using: &random)]
      let params: JSONObject = ["by": .array(by.map(JSONValue.string)), "aggregate": .object(aggregates)]
      let expected: Table?
      do { expected = try KindHarness.table("groupBy", params, [.table(table)]) } catch { expected = nil }
      var parsed: [Aggregate] = []
      for member in aggregates.members {
        guard case .string(let text) = member.value else { continue }
        parsed.append(try Aggregate.parse(output: member.key, text).get())
      }
      var stream = GroupByStream(keys: by, aggregates: parsed)
      var start = 0
      while start < table.rowCount {
        let end = min(table.rowCount, start + Int.random(in: 1...40, using: &random))
        try stream.add(table.slice(start..<end), workers: 1)
        start = end
      }
      guard let expected else {
        // The kernel fails (an integer sum out of range): so does the stream.
        #expect(throws: (any Error).self, "seed \(seed)") { try stream.result() }
        overflows += 1
        continue
      }
      let streamed = try stream.result()
      #expect(streamed.columnNames == expected.columnNames, "seed \(seed)")
      #expect(streamed.rowCount == expected.rowCount, "seed \(seed) by \(by)")
      for column in 0..<min(streamed.columnCount, expected.columnCount) {
        for row in 0..<min(streamed.rowCount, expected.rowCount) {
          let a = streamed.cell(row: row, column: column), b = expected.cell(row: row, column: column)
          #expect(Self.bitEqual(a, b), "seed \(seed) by \(by) \(streamed.columnNames[column]) row \(row): \(a) vs \(b)")
        }
      }
    }
    #expect(overflows > 0 && overflows < 90, "both outcomes seen: \(overflows) of 90 overflow")
  }

  /// Equal values, numbers by their bits (NaN equals NaN, -0.0 is not +0.0).
  static func bitEqual(_ a: Value, _ b: Value) -> Bool {
    if case .number(let x) = a, case .number(let y) = b { return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN) }
    return a == b
  }
}
