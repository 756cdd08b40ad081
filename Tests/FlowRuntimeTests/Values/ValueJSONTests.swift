import Testing

import FlowGraph
import FlowRuntime

/// `Value(json:as:)` for integer ports: exact, for every double, with no trap.
@Suite struct ValueJSONTests {
  @Test func integersAtTheEdgesOfInt64AreExact() {
    #expect(Value(json: .number(-9_223_372_036_854_775_808.0), as: .integer) == .integer(Int64.min))
    // The largest double below 2^63.
    #expect(Value(json: .number(9_223_372_036_854_774_784.0), as: .integer) == .integer(9_223_372_036_854_774_784))
  }

  @Test(arguments: [
    9_223_372_036_854_775_808.0, -9_223_372_036_854_777_856.0, 1e300, -1e300, .infinity, -.infinity, .nan, 0.5
  ])
  func numbersOutsideInt64OrNotWholeAreNotIntegers(_ x: Double) {
    #expect(Value(json: .number(x), as: .integer) == nil)
  }

  @Test func negativeZeroIsTheIntegerZero() {
    #expect(Value(json: .number(-0.0), as: .integer) == .integer(0))
  }
}
