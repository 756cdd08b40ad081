import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `window` on small tables with values computed outside the product (python3, `math.fsum`),
/// and its messages for bad params and bad columns.
@Suite struct WindowNodeTests {
  /// Penguins-like rows: species, body mass (one null), bill length (one null).
  static func penguins() throws -> Table {
    try Table([
      (
        name: "species",
        column: .strings(["Adelie", "Adelie", "Gentoo", "Adelie", "Gentoo", "Chinstrap", "Gentoo", "Adelie"])
      ),
      (name: "mass", column: .integers([3750, 3800, 5000, nil, 4900, 3500, 5400, 3250])),
      (name: "bill", column: .numbers([39.1, 39.5, 46.1, nil, 48.7, 46.5, 50.0, 40.3]))
    ])
  }

  @Test func penguinsByMassWithinSpeciesMatchPythonValues() throws {
    let table = try KindHarness.table(
      "window",
      [
        "partitionBy": ["species"], "orderBy": ["-mass"],
        "columns": [
          "rank": "rank()", "previous": "lag(mass)", "running": "cumsum(mass)", "meanBill": "mean(bill)",
          "pair": "rollingMean(bill, 2)"
        ]
      ], [.table(try Self.penguins())])
    #expect(table.columnNames == ["species", "mass", "bill", "rank", "previous", "running", "meanBill", "pair"])
    #expect(table.column(named: "species") == (try Self.penguins()).column(named: "species"))
    #expect(
      table.cells("rank") == [
        .integer(2), .integer(1), .integer(2), .integer(4), .integer(3), .integer(1), .integer(1), .integer(3)
      ])
    #expect(
      table.cells("previous") == [
        .integer(3800), .null, .integer(5400), .integer(3250), .integer(5000), .null, .null, .integer(3750)
      ])
    #expect(table.cells("running") == [7550, 3800, 10400, 10800, 15300, 3500, 5400, 10800].map { Cell.integer($0) })
    let adelie = 39.63333333333333, gentoo = 48.26666666666667
    #expect(
      table.cells("meanBill") == [adelie, adelie, gentoo, adelie, gentoo, 46.5, gentoo, adelie].map { Cell.number($0) })
    #expect(
      table.cells("pair") == [39.3, 39.5, 48.05, 40.3, 47.400000000000006, 46.5, 50.0, 39.7].map { Cell.number($0) })
  }

  /// The analysis aggregates over each species' masses (nulls skipped, one value: null spread),
  /// values from Python's `statistics` and a sorted-array quantile.
  @Test func medianStdVarAndQuantileFillEachPartition() throws {
    let table = try KindHarness.table(
      "window",
      [
        "partitionBy": ["species"],
        "columns": ["median": "median(mass)", "std": "std(mass)", "var": "var(mass)", "q1": "quantile(mass, 0.25)"]
      ], [.table(try Self.penguins())])
    func spread(_ adelie: Cell, _ gentoo: Cell, _ chinstrap: Cell) -> [Cell] {
      [adelie, adelie, gentoo, adelie, gentoo, chinstrap, gentoo, adelie]
    }
    #expect(table.cells("median") == spread(.number(3750), .number(5000), .number(3500)))
    #expect(table.cells("var") == spread(.number(92_500), .number(70_000), .null))
    #expect(table.cells("std") == spread(.number(92_500.0.squareRoot()), .number(70_000.0.squareRoot()), .null))
    #expect(table.cells("q1") == spread(.number(3_500), .number(4_950), .number(3_500)))
    do {
      _ = try KindHarness.table("window", ["columns": ["q": "quantile(mass, 2)"]], [.table(try Self.penguins())])
      Issue.record("a quantile of 2 is refused")
    } catch {
      #expect("\(error)".contains("the second argument of quantile must be a number from 0 to 1"))
    }
  }

  @Test func lagWithADefaultAndLeadPastTheEnd() throws {
    let input = try Table([(name: "x", column: .integers([1, 2, 3, 4]))])
    let table = try KindHarness.table(
      "window", ["columns": ["back": "lag(x, 2, 0)", "ahead": "lead(x, 1, 0.5)", "same": "lag(x, 0)"]],
      [.table(input)])
    #expect(table.cells("back") == [0, 0, 1, 2].map { Cell.integer($0) })
    #expect(table.cells("ahead") == [2, 3, 4, 0.5].map { Cell.number($0) })
    #expect(table.cells("same") == [1, 2, 3, 4].map { Cell.integer($0) })
  }

  @Test func rollingSumsStayCompensatedAndInfinitiesLeaveTheWindow() throws {
    let input = try Table([(name: "x", column: .numbers([0.1, 0.2, .infinity, 0.3, 0.4, 0.5, -.infinity, 1, 2]))])
    let table = try KindHarness.table(
      "window", ["columns": ["s": "rollingSum(x, 2)", "total": "cumsum(x)"]], [.table(input)])
    // python3: [math.fsum(x[max(0, i-1):i+1]) for i in range(9)]
    #expect(
      table.cells("s")
        == [0.1, 0.30000000000000004, .infinity, .infinity, 0.7, 0.9, -.infinity, -.infinity, 3].map { Cell.number($0) }
    )
    if case .number(let last)? = table.cells("total").last { #expect(last.isNaN) } else { Issue.record("no number") }
  }

  @Test func integerSumsAreExactOrAnError() throws {
    let input = try Table([(name: "x", column: .integers([Int64.max, 1, -2]))])
    let failure = KindHarness.failure {
      try KindHarness.table("window", ["columns": ["s": "cumsum(x)"]], [.table(input)])
    }
    #expect(failure == "column 's': cumsum(x) does not fit in a 64-bit integer (integer sums are exact)")
    let rolling = try KindHarness.table(
      "window", ["columns": ["s": "rollingSum(x, 1)", "w": "sum(x)"]], [.table(input)])
    #expect(rolling.cells("s") == [.integer(Int64.max), .integer(1), .integer(-2)])
    #expect(rolling.cells("w") == [Cell](repeating: .integer(Int64.max - 1), count: 3))
  }

  @Test func anEmptyTableKeepsTheColumnsTypes() throws {
    let input = try Table([(name: "x", column: .strings([])), (name: "n", column: .integers([]))])
    let table = try KindHarness.table(
      "window", ["columns": ["r": "rowNumber()", "m": "mean(n)", "l": "lag(x)"]], [.table(input)])
    #expect(table.columns.map(\.type) == [.string, .integer, .integer, .number, .string])
    #expect(table.rowCount == 0)
  }

  @Test(arguments: [
    ("lagg(x)", "column 'a': unknown window function 'lagg' (did you mean 'lag'?)"),
    ("rank(x)", "column 'a': rank takes 0 arguments, found 1 in \"rank(x)\" (rank())"),
    ("rollingMean(x)", "column 'a': rollingMean takes 2 arguments, found 1 in \"rollingMean(x)\" (rollingMean(c, n))"),
    (
      "rollingMean(x, 0)",
      "column 'a': the second argument of rollingMean must be an integer from 1 to 1099511627776, found '0'"
    ),
    ("lag(x, -1)", "column 'a': the second argument of lag must be an integer from 0 to 1099511627776, found '-1'"),
    (
      "lag(x, 1, nope)",
      "column 'a': the default of lag must be a number, a string in double quotes, true, false or null, found 'nope'"
    ),
    ("sum(\"x\")", "column 'a': the first argument of sum must be a column name, found '\"x\"'"),
    ("x + 1", "column 'a': \"x + 1\" is not a window function call such as \"lag(c)\" or \"rank()\"")
  ])
  func badEntriesAreConfigurationErrorsNamingTheColumn(text: String, message: String) {
    guard case .failure(let problem) = WindowFunction.parse(output: "a", text) else {
      Issue.record("\(text) parsed")
      return
    }
    #expect(problem.parameter == "columns")
    #expect(problem.reason == message)
    let failure = KindHarness.failure { try KindHarness.table("window", ["columns": ["a": .string(text)]], []) }
    #expect(failure?.hasPrefix("configure window: ") == true, "\(failure ?? "no failure")")
  }

  @Test func runTimeFailuresNameTheColumnAndTheFunction() throws {
    let input = try Self.penguins()
    let missing = KindHarness.failure {
      try KindHarness.table("window", ["columns": ["a": "cumsum(wings)"]], [.table(input)])
    }
    #expect(missing?.hasPrefix("column 'a': no column 'wings'") == true, "\(missing ?? "")")
    let order = KindHarness.failure {
      try KindHarness.table("window", ["orderBy": ["-size"], "columns": ["a": "rank()"]], [.table(input)])
    }
    #expect(order?.hasPrefix("orderBy: no column 'size'") == true, "\(order ?? "")")
    let text = KindHarness.failure {
      try KindHarness.table("window", ["columns": ["a": "mean(species)"]], [.table(input)])
    }
    #expect(text == "column 'a': mean(species) needs numbers, but the column is string")
    let fallback = KindHarness.failure {
      try KindHarness.table("window", ["columns": ["a": "lag(mass, 1, \"none\")"]], [.table(input)])
    }
    #expect(fallback?.hasPrefix("column 'a': lag(mass): the default") == true, "\(fallback ?? "")")
  }
}
