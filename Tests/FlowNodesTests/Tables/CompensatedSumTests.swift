import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `sum` and `mean` in `reduce` and `groupBy` are compensated (Reference.md, "Values and types").
@Suite struct CompensatedSumTests {
  /// 365 daily values of one decimal (0.0 to 4.5, like a year of rain in inches) whose decimal
  /// sum is 828.0; added left to right in doubles they give 827.9999999999999.
  static let year: [Double] = {
    var tenths = (0..<364).map { ($0 * 47 + 11) % 46 }
    tenths.append(8_280 - tenths.reduce(0, +))
    return tenths.map { Double($0) / 10 }
  }()

  private func reduce(_ op: String, _ values: [Double]) throws -> Value {
    try KindHarness.run("reduce", ["op": .string(op)], [.list(values.map(Value.number))])[0]
  }

  private func groupBy(_ values: [Double], groups: [String]) throws -> Table {
    let table = try Table([("g", .strings(groups)), ("x", .numbers(values))])
    return try KindHarness.table(
      "groupBy", ["by": ["g"], "aggregate": ["s": "sum(x)", "m": "mean(x)"]], [.table(table)])
  }

  @Test func aYearOfDailyValuesSumsTo828AsPandasPrintsIt() throws {
    #expect(Self.year.count == 365 && Self.year.allSatisfy { $0 >= 0 && $0 < 5 })
    #expect(Self.year.reduce(0, +) != 828)  // the naive sum is off
    #expect(try reduce("sum", Self.year) == .number(828))
    #expect(try reduce("mean", Self.year) == .number(828.0 / 365))
    // In any order: the same 828 in two groups (the second reversed).
    let table = try groupBy(
      Self.year + Self.year.reversed(),
      groups: Array(repeating: "a", count: 365) + Array(repeating: "b", count: 365))
    #expect(
      KindHarness.rows(table) == [
        [.string("a"), .number(828), .number(828.0 / 365)],
        [.string("b"), .number(828), .number(828.0 / 365)]
      ])
    #expect(try KindHarness.run("format", ["template": "{t}"], [try reduce("sum", Self.year)]) == [.string("828")])
  }

  @Test func integerSumsStayExactAndOverflowIsAnError() throws {
    let big: [Value] = [.integer(Int64.max - 1), .integer(1), .integer(-5)]
    #expect(try KindHarness.run("reduce", ["op": "sum"], [.list(big)]) == [.integer(Int64.max - 5)])
    // Past Int64 and back: the exact sum fits, so it is the integer.
    let back: [Value] = [.integer(Int64.max), .integer(2), .integer(-3)]
    #expect(try KindHarness.run("reduce", ["op": "sum"], [.list(back)]) == [.integer(Int64.max - 1)])
    let over: [Value] = [.integer(Int64.max), .integer(Int64.max)]
    let reduceFailure = KindHarness.failure { try KindHarness.run("reduce", ["op": "sum"], [.list(over)]) }
    #expect(reduceFailure == "sum: the sum of the 2 integers does not fit in a 64-bit integer (integer sums are exact)")
    // A list with a number is summed as numbers, as before.
    let mixed: [Value] = [.integer(Int64.max), .integer(Int64.max), .number(0.5)]
    #expect(try KindHarness.run("reduce", ["op": "sum"], [.list(mixed)]) == [.number(2 * Double(Int64.max) + 0.5)])
    let table = try Table([("g", .strings(["a", "a", "b", "a"])), ("n", .integers([Int64.max - 1, 1, -3, 5]))])
    let failure = KindHarness.failure {
      try KindHarness.table("groupBy", ["by": ["g"], "aggregate": ["c": "count()", "s": "sum(n)"]], [.table(table)])
    }
    #expect(failure == #"s: sum(n) does not fit in a 64-bit integer in the group g = "a" (integer sums are exact)"#)
    let undone = try Table([("g", .strings(["a", "a", "b", "a"])), ("n", .integers([Int64.max - 1, 1, -3, -5]))])
    let sums = try KindHarness.table("groupBy", ["by": ["g"], "aggregate": ["s": "sum(n)"]], [.table(undone)])
    #expect(KindHarness.rows(sums) == [[.string("a"), .integer(Int64.max - 5)], [.string("b"), .integer(-3)]])
    let whole = KindHarness.failure {
      try KindHarness.table("groupBy", ["aggregate": ["s": "sum(n)"]], [.table(table)])
    }
    #expect(whole == "s: sum(n) does not fit in a 64-bit integer over all rows (integer sums are exact)")
  }

  @Test func infinitiesAndNaNsPassThroughTheCompensation() throws {
    #expect(try reduce("sum", [1, .infinity, 2]) == .number(.infinity))
    #expect(try reduce("sum", [-.infinity, 1e308, 1e308]) == .number(-.infinity))
    #expect(try reduce("sum", [1e308, 1e308, -1]) == .number(.infinity))
    guard case .number(let nan) = try reduce("sum", [.infinity, -.infinity]) else { return }
    #expect(nan.isNaN)
    let table = try groupBy([1, .infinity, 3, 1e308, 1e308], groups: ["a", "a", "b", "c", "c"])
    #expect(table.cells("s") == [.number(.infinity), .number(3), .number(.infinity)])
  }

  /// Against an exact reference (Shewchuk's partials, as Python's `math.fsum`) over random
  /// values of mixed signs and magnitudes: within one rounding of the exact sum plus the
  /// method's second-order term, where the naive sum is often far off.
  @Test(arguments: 0..<100)
  func sumsAreWithinOneRoundingOfTheExactSum(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed) &* 2_654_435_761 &+ 7)
    let count = Int.random(in: 1...400, using: &random)
    let values = (0..<count).map { _ in
      Double.random(in: -1...1, using: &random)
        * Double(sign: .plus, exponent: Int.random(in: -20...30, using: &random), significand: 1)
    }
    let exact = Self.exactSum(values)
    let magnitude = values.reduce(0) { $0 + abs($1) }
    let bound = 2 * exact.ulp + 4 * Double(count) * Double.ulpOfOne * Double.ulpOfOne * magnitude
    guard case .number(let reduced) = try reduce("sum", values) else {
      Issue.record("reduce gave no number")
      return
    }
    #expect(abs(reduced - exact) <= bound, "seed \(seed): \(reduced) vs exact \(exact)")
    let grouped = try groupBy(values, groups: values.indices.map { $0 % 3 == 0 ? "a" : "b" })
    for (row, group) in ["a", "b"].enumerated() {
      let members = values.indices.filter { ($0 % 3 == 0) == (group == "a") }.map { values[$0] }
      guard !members.isEmpty, case .number(let sum) = grouped.cells("s")[row] else { continue }
      let exactGroup = Self.exactSum(members)
      let groupBound = 2 * exactGroup.ulp + 4 * Double(members.count) * Double.ulpOfOne * Double.ulpOfOne * magnitude
      #expect(abs(sum - exactGroup) <= groupBound, "seed \(seed), group \(group)")
    }
  }

  /// The sum of `values` rounded once: Shewchuk's non-overlapping partials, summed from the
  /// largest (as `math.fsum`, without its last half-way correction).
  static func exactSum(_ values: [Double]) -> Double {
    var partials: [Double] = []
    for var x in values {
      var kept = 0
      for var y in partials {
        if abs(x) < abs(y) { swap(&x, &y) }
        let high = x + y
        let low = y - (high - x)
        if low != 0 { partials[kept] = low; kept += 1 }
        x = high
      }
      partials.removeSubrange(kept...)
      partials.append(x)
    }
    var total = 0.0
    for partial in partials.reversed() { total += partial }
    return total
  }
}
