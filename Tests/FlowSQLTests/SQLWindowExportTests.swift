import FlowNodes
import FlowRuntime
@testable import FlowSQL
import Testing

/// `window` and `unpivot` in every dialect (DuckDB runs them in `Scripts/verify-sql.sh`), and
/// `pivot`'s refusal.
@Suite struct SQLWindowExportTests {
  static let csv = "k,v,s\n1,2.5,a\n2,NA,b\n1,4,c\n"
  static let reader = (id: "t", kind: "readCSV", params: #"{"path": "t.csv"}"#)

  static func script(_ kind: String, _ params: String, _ dialect: SQLDialect) throws -> String {
    let json = SQLTestSupport.graph([Self.reader, ("w", kind, params)], [("t", "w", "table")])
    return try SQLTestSupport.export(json, dialect, nodes: ["w"], files: ["t.csv": Self.csv])
  }

  static let everyFunction = #"""
    {"partitionBy": ["k"], "orderBy": ["-v", "s"], "columns": {
      "rn": "rowNumber()", "rk": "rank()", "dr": "denseRank()", "back": "lag(v, 2, 0.5)", "ahead": "lead(s)",
      "cs": "cumsum(v)", "cmin": "cummin(s)", "cmax": "cummax(v)", "cm": "cummean(k)", "cc": "cumcount()",
      "rs": "rollingSum(k, 3)", "rm": "rollingMean(v, 2)", "rmin": "rollingMin(v, 2)", "rmax": "rollingMax(s, 2)",
      "total": "sum(v)", "avg": "mean(v)", "lo": "min(s)", "hi": "max(k)", "n": "count()", "nv": "count(v)",
      "twice": "cumsum(rn)"}}
    """#

  @Test(arguments: [SQLDialect.duckdb, .spark, .trino])
  func everyWindowFunctionExports(dialect: SQLDialect) throws {
    let script = try Self.script("window", Self.everyFunction, dialect)
    #expect(script.contains("ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"))
    #expect(script.contains("ROWS BETWEEN 2 PRECEDING AND CURRENT ROW"))
    #expect(script.contains("rank() OVER (PARTITION BY"))
    // `twice` reads `rn`, which the same node adds: a helper relation first.
    #expect(script.contains(dialect == .spark ? "`w~" : #""w~"#))
  }

  @Test func postgresHasEveryFunctionButFirstAndLast() throws {
    let script = try Self.script("window", Self.everyFunction, .postgres)
    #expect(script.contains("CAST(avg(CAST("))
    let failure = #expect(throws: SQLExportError.self) {
      try Self.script("window", #"{"columns": {"f": "first(v)"}}"#, .postgres)
    }
    #expect(failure?.description.contains("IGNORE NULLS") == true)
  }

  @Test func duckdbWindowsKeepTheRowOrderAndCompensatedSums() throws {
    let script = try Self.script(
      "window", #"{"partitionBy": ["k"], "orderBy": ["-v"], "columns": {"c": "cumsum(v)", "r": "rank()"}}"#, .duckdb)
    #expect(
      script.contains(
        #"fsum("v") OVER (PARTITION BY "k" ORDER BY "v" DESC NULLS LAST, "__flow_row" ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS "c""#
      ))
    #expect(script.contains(#"rank() OVER (PARTITION BY "k" ORDER BY "v" DESC NULLS LAST) AS "r""#))
  }

  @Test(arguments: [SQLDialect.duckdb, .spark, .trino, .postgres])
  func unpivotIsAUnionAll(dialect: SQLDialect) throws {
    let script = try Self.script("unpivot", #"{"keep": ["s"], "columns": ["k", "v"]}"#, dialect)
    #expect(script.contains("UNION ALL"))
    #expect(script.contains(dialect == .spark ? "`__flow_slot`" : #""__flow_slot""#))
  }

  @Test func unpivotOfMixedTypesNamesTheColumns() {
    let failure = #expect(throws: SQLExportError.self) {
      try Self.script("unpivot", #"{"columns": ["k", "s"]}"#, .duckdb)
    }
    #expect(failure?.description == "node 'w': columns: 'k' and 's' have types that do not mix (integer, string)")
  }

  @Test func pivotSaysItHasNoSQLForm() {
    let failure = #expect(throws: SQLExportError.self) {
      try Self.script("pivot", #"{"index": ["k"], "columns": "s", "values": "v"}"#, .duckdb)
    }
    #expect(failure?.description.hasPrefix("node 'w': pivot has no SQL form") == true)
  }
}
