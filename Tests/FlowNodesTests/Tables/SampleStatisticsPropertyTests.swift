import FlowGraph
import FlowRuntime
import FlowTestSupport
import Testing
@testable import FlowNodes

/// The analysis aggregates against reference loops: quantiles against sorted-array
/// interpolation, variance against a plain two-pass formula, sums and means of bools against
/// counting, in `groupBy` (random groups, nulls) and `reduce`.
@Suite struct SampleStatisticsPropertyTests {
  /// The textbook quantile: sort, then interpolate between the order statistics around
  /// (n − 1) × q.
  static func referenceQuantile(_ values: [Double], _ q: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let h = Double(sorted.count - 1) * q
    let low = Int(h.rounded(.down)), high = Swift.min(low + 1, sorted.count - 1)
    return sorted[low] + (h - Double(low)) * (sorted[high] - sorted[low])
  }

  /// The textbook sample variance: mean, then the squared deviations over n − 1.
  static func referenceVariance(_ values: [Double]) -> Double? {
    guard values.count >= 2 else { return nil }
    let mean = values.reduce(0, +) / Double(values.count)
    return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
  }

  static func close(_ a: Double?, _ b: Double?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return abs(a - b) <= 1e-9 * Swift.max(1, abs(a), abs(b))
  }

  @Test(arguments: 0..<60)
  func statisticsMatchTheReferenceLoops(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let count = Int.random(in: 0...40, using: &random)
    // Few distinct values, so ties are common.
    let values = (0..<count).map { _ in Double(Int.random(in: -20...20, using: &random)) / 4 }
    let q = [0, 0.1, 0.25, 0.5, 0.9, 1, Double.random(in: 0...1, using: &random)].randomElement(using: &random)!
    #expect(Self.close(SampleStatistics.quantile(values, q), Self.referenceQuantile(values, q)), "\(values) q=\(q)")
    #expect(Self.close(SampleStatistics.median(values), Self.referenceQuantile(values, 0.5)))
    #expect(Self.close(SampleStatistics.variance(values), Self.referenceVariance(values)), "\(values)")
    #expect(
      Self.close(SampleStatistics.standardDeviation(values), Self.referenceVariance(values).map { $0.squareRoot() }))
  }

  @Test(arguments: 0..<30)
  func groupByAggregatesMatchPerGroupReferences(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let rows = Int.random(in: 0...60, using: &random)
    let keys: [Int64?] = (0..<rows).map { _ in Int64.random(in: 0...4, using: &random) }
    let values: [Int64?] = (0..<rows).map { _ in
      Int.random(in: 0..<5, using: &random) == 0 ? nil : Int64.random(in: -9...9, using: &random)
    }
    let flags: [Bool?] = (0..<rows).map { _ in
      Int.random(in: 0..<6, using: &random) == 0 ? nil : Bool.random(using: &random)
    }
    let table = try Table([("k", .integers(keys)), ("v", .integers(values)), ("late", .bools(flags))])
    let aggregate: JSONObject = [
      "median": "median(v)", "std": "std(v)", "var": "var(v)", "q9": "quantile(v, 0.9)", "n": "count(v)",
      "lateSum": "sum(late)", "lateMean": "mean(late)"
    ]
    let result = try KindHarness.table("groupBy", ["by": ["k"], "aggregate": .object(aggregate)], [.table(table)])
    let groupKeys = result.column(named: "k")!.values
    for (group, key) in groupKeys.enumerated() {
      let rowsOfGroup = (0..<rows).filter { Value.integer(keys[$0]!) == key }
      let numbers = rowsOfGroup.compactMap { values[$0] }.map(Double.init)
      let bools = rowsOfGroup.compactMap { flags[$0] }
      func number(_ name: String) -> Double? { result.column(named: name)!.values[group].numberValue }
      #expect(Self.close(number("median"), Self.referenceQuantile(numbers, 0.5)))
      #expect(Self.close(number("q9"), Self.referenceQuantile(numbers, 0.9)))
      #expect(Self.close(number("var"), Self.referenceVariance(numbers)))
      #expect(Self.close(number("std"), Self.referenceVariance(numbers).map { $0.squareRoot() }))
      #expect(result.column(named: "n")!.values[group] == .integer(Int64(numbers.count)))
      let trues = bools.filter { $0 }.count
      #expect(result.column(named: "lateSum")!.values[group] == (bools.isEmpty ? .null : .integer(Int64(trues))))
      #expect(Self.close(number("lateMean"), bools.isEmpty ? nil : Double(trues) / Double(bools.count)))
    }
  }

  @Test func reduceHasTheAnalysisAggregatesAndCountsTrueAsOne() throws {
    let list: Value = .list([.integer(1), .number(2.5), .null, .integer(4), .integer(10)])
    func reduce(_ op: String, q: Double = 0.5, _ input: Value = list) throws -> Value {
      try KindHarness.run("reduce", ["op": .string(op), "q": .number(q)], [input])[0]
    }
    #expect(try reduce("median") == .number(3.25))
    #expect(try reduce("quantile", q: 0.25) == .number(2.125))
    #expect(Self.close(try reduce("var").numberValue, Self.referenceVariance([1, 2.5, 4, 10])))
    #expect(try reduce("std", .list([.integer(3)])) == .null)
    let flags: Value = .list([.bool(true), .bool(false), .bool(true), .null])
    #expect(try reduce("sum", flags) == .integer(2))
    #expect(Self.close(try reduce("mean", flags).numberValue, 2.0 / 3))
    #expect(try reduce("max", flags) == .bool(true))
    let message = KindHarness.failure { try reduce("quantile", q: 1.5) }
    #expect(message?.contains("q") == true && message?.contains("from 0 to 1") == true, "\(message ?? "")")
  }
}
