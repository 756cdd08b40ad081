import FlowGraph
import FlowRuntime
import FlowTestSupport
import Testing
@testable import FlowNodes

/// The analyst's table features: `sort.by` formulas, `join` with `on: []` (a cross join), the
/// analysis aggregates of `groupBy`; and a flights-like case whose expected values DuckDB 1.x
/// computed outside the product (`quantile_cont`, `stddev_samp`, `var_samp`, `dayname` of
/// `timezone('America/New_York', …)`, `LIKE`).
@Suite struct AnalystKindTests {
  static let flightsCSV = """
    carrier,origin,dep_delay,arr_delay,late,time_hour
    UA,EWR,2,11,true,2013-01-01 05:00:00
    AA,LGA,-4,-18,false,2013-01-01 06:00:00
    UA,JFK,,,,2013-01-01 07:00:00
    B6,JFK,-5,-14,false,2013-01-06 23:00:00
    AA,JFK,33,31,true,2013-01-07 02:00:00
    B6,LGA,101,137,true,2013-03-10 06:00:00
    UA,EWR,-3,7,false,2013-03-10 07:00:00
    B6,JFK,0,-8,false,2013-07-04 03:00:00
    AA,LGA,12,19,true,2013-11-03 05:30:00
    UA,LGA,-1,-2,false,2013-11-03 06:30:00
    B6,EWR,8,-25,false,2013-12-31 23:59:00
    UA,JFK,45,44,true,2013-12-31 04:59:00

    """

  static func flights() throws -> Table { try CSVReader().read(Array(flightsCSV.utf8)) }

  static func close(_ value: Value, _ expected: Double) -> Bool {
    guard let x = value.numberValue else { return false }
    return abs(x - expected) <= 1e-12 * max(1, abs(expected))
  }

  @Test func flightsByCarrierMatchDuckDB() throws {
    let aggregate: JSONObject = [
      "n": "count(dep_delay)", "median": "median(dep_delay)", "p90": "quantile(dep_delay, 0.9)",
      "std": "std(dep_delay)",
      "var": "var(arr_delay)", "lateFlights": "sum(late)", "lateShare": "mean(late)"
    ]
    let result = try KindHarness.table(
      "groupBy", ["by": ["carrier"], "aggregate": .object(aggregate)], [.table(try Self.flights())])
    #expect(result.column(named: "carrier")?.values == ["UA", "AA", "B6"].map { .string($0) })
    #expect(result.column(named: "n")?.values == [4, 3, 4].map { .integer($0) })
    #expect(result.column(named: "lateFlights")?.values == [2, 2, 1].map { .integer($0) })
    let expected: [(String, [Double])] = [
      ("median", [0.5, 12.0, 4.0]),
      ("p90", [32.10000000000001, 28.8, 73.10000000000002]),
      ("std", [22.925604317734646, 18.556220879622373, 50.2858495669176]),
      ("var", [403.3333333333333, 652.3333333333334, 5876.333333333333]),
      ("lateShare", [0.5, 0.6666666666666666, 0.25])
    ]
    for (name, values) in expected {
      let column = try #require(result.column(named: name))
      for (row, value) in values.enumerated() {
        #expect(Self.close(column[row], value), "\(name) row \(row): \(column[row]) vs \(value)")
      }
    }
  }

  @Test func flightsSortedByAFormulaWithLocalWeekdaysMatchDuckDB() throws {
    let derived = try KindHarness.table(
      "derive",
      [
        "columns": [
          "local": "inTimeZone(time_hour, \"America/New_York\")", "weekday": "weekdayName(local)",
          "month": "monthName(local)"
        ]
      ], [.table(try Self.flights())])
    let sorted = try KindHarness.table("sort", ["by": ["-abs(arr_delay)"]], [.table(derived)])
    #expect(
      sorted.column(named: "arr_delay")?.values == [137, 44, 31, -25, 19, -18, -14, 11, -8, 7, -2].map { .integer($0) }
        + [.null])
    #expect(
      sorted.column(named: "weekday")?.values
        == [
          "Sunday", "Monday", "Sunday", "Tuesday", "Sunday", "Tuesday", "Sunday", "Tuesday", "Wednesday", "Sunday",
          "Sunday", "Tuesday"
        ].map { .string($0) })
    #expect(
      sorted.column(named: "local").map { Array($0.values.prefix(3)) }
        == [
          "2013-03-10T01:00:00-05:00", "2013-12-30T23:59:00-05:00", "2013-01-06T21:00:00-05:00"
        ].map { .string($0) })
    #expect(sorted.column(named: "month")?.values[8] == .string("July"))
    let jfk = try KindHarness.table("filter", ["where": "like(origin, \"%J_K\")"], [.table(try Self.flights())])
    #expect(jfk.rowCount == 5)
  }

  @Test func sortKeepsColumnsAndTakesFormulas() throws {
    let table = try Table([("x", .integers([3, -7, nil, 5, -3])), ("a+b", .integers([1, 2, 3, 4, 5]))])
    let byFormula = try KindHarness.table("sort", ["by": ["-abs(x)"]], [.table(table)])
    #expect(byFormula.column(named: "x")?.values == [.integer(-7), .integer(5), .integer(3), .integer(-3), .null])
    // Ascending by a formula; ties keep input order.
    let ascending = try KindHarness.table("sort", ["by": ["x * x"]], [.table(table)])
    #expect(ascending.column(named: "x")?.values == [.integer(3), .integer(-3), .integer(5), .integer(-7), .null])
    // A column whose name reads as a formula is the column.
    let byColumn = try KindHarness.table("sort", ["by": ["-a+b"]], [.table(table)])
    #expect(byColumn.column(named: "a+b")?.values == [5, 4, 3, 2, 1].map { .integer($0) })
    #expect(
      KindHarness.failure { try KindHarness.table("sort", ["by": ["nope"]], [.table(table)]) }?
        .hasPrefix("no column 'nope'") == true)
    let message = KindHarness.failure { try KindHarness.table("sort", ["by": ["abs(nope)"]], [.table(table)]) }
    #expect(
      message?.contains("param 'by'") == true && message?.contains("no column 'nope'") == true, "\(message ?? "")")
  }

  @Test func anEmptyOnIsACrossJoinInLeftThenRightOrder() throws {
    let left = try Table([("k", .integers([1, 2])), ("v", .strings(["a", "b"]))])
    let right = try Table([("v", .strings(["x", "y", "z"]))])
    let joined = try KindHarness.table("join", ["on": []], [.table(left), .table(right)])
    #expect(joined.columnNames == ["k", "v", "v_right"])
    #expect(joined.column(named: "k")?.values == [1, 1, 1, 2, 2, 2].map { .integer($0) })
    #expect(joined.column(named: "v_right")?.values == ["x", "y", "z", "x", "y", "z"].map { .string($0) })
    let empty = try Table([("w", .integers([]))])
    #expect(try KindHarness.table("join", ["on": []], [.table(left), .table(empty)]).rowCount == 0)
    #expect(
      KindHarness.failure { try KindHarness.table("join", ["on": [], "how": "left"], [.table(left), .table(right)]) }?
        .contains("cross join") == true)
  }

  @Test func aCrossJoinPastTheRowLimitFailsNamingTheLimitBeforeBuilding() throws {
    let left = try Table([("a", .integers((0..<1_000).map { Int64($0) }))])
    let right = try Table([("b", .integers((0..<1_000).map { Int64($0) }))])
    let limits = RunLimits(maxRows: 100_000), morsels = TableMorsels(workers: TableParallelism.defaultWorkers)
    #expect(throws: NodeError.self) {
      try JoinNode.Evaluator.joined(left, right, keys: [], kind: .inner, limits: limits, morsels: morsels)
    }
    do {
      _ = try JoinNode.Evaluator.joined(left, right, keys: [], kind: .inner, limits: limits, morsels: morsels)
    } catch let error as NodeError {
      #expect(error.message.contains("1000000 rows") && error.message.contains("row limit 100000"), "\(error.message)")
    }
  }
}
