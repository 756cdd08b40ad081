import FlowNodes
import FlowRuntime
@testable import FlowSQL
import Testing

/// The analyst's features in SQL: cross joins, sort formulas, the analysis aggregates and bool
/// sums, per dialect (their results on DuckDB are compared with flow's by
/// `Scripts/verify-sql.sh`).
@Suite struct SQLAnalystExportTests {
  static let csv = "k,v,s,late\n1,2.5,a,true\n2,NA,b,false\n"
  static let reader = (id: "t", kind: "readCSV", params: #"{"path": "t.csv"}"#)

  func script(_ node: (String, String, String), _ dialect: SQLDialect = .duckdb) throws -> String {
    let json = SQLTestSupport.graph([Self.reader, node], [("t", node.0, "table")])
    return try SQLTestSupport.export(json, dialect, nodes: [node.0], files: ["t.csv": Self.csv])
  }

  @Test(arguments: SQLDialect.allCases)
  func anEmptyOnIsACrossJoinInLeftThenRightOrder(dialect: SQLDialect) throws {
    let json = SQLTestSupport.graph(
      [Self.reader, ("j", "join", #"{"on": []}"#)], [("t", "j", "left"), ("t", "j", "right")])
    let script = try SQLTestSupport.export(json, dialect, nodes: ["j"], files: ["t.csv": Self.csv])
    #expect(script.contains("CROSS JOIN"), "\(script)")
    let left = SQLTestSupport.graph(
      [Self.reader, ("j", "join", #"{"on": [], "how": "left"}"#)], [("t", "j", "left"), ("t", "j", "right")])
    #expect(throws: SQLExportError.self) {
      try SQLTestSupport.export(left, dialect, nodes: ["j"], files: ["t.csv": Self.csv])
    }
  }

  @Test(arguments: SQLDialect.allCases)
  func aSortFormulaOrdersByItsExpression(dialect: SQLDialect) throws {
    let sql = try script(("s", "sort", #"{"by": ["-abs(v - 1)", "k"]}"#), dialect)
    #expect(sql.contains("abs(") && sql.contains("DESC NULLS LAST"), "\(sql)")
    #expect(throws: SQLExportError.self) { try script(("s", "sort", #"{"by": ["abs(nope)"]}"#), dialect) }
  }

  @Test(arguments: SQLDialect.allCases)
  func theAnalysisAggregatesTranslateOrNameTheDialect(dialect: SQLDialect) throws {
    let spread = (
      id: "g", kind: "groupBy",
      params:
        #"{"by": ["s"], "aggregate": {"sd": "std(v)", "vr": "var(k)", "n": "count(v)", "lates": "sum(late)", "share": "mean(late)"}}"#
    )
    let sql = try script(spread, dialect)
    #expect(
      sql.contains("stddev_samp(") && sql.contains("var_samp(") && sql.contains("count(\"v\")") || dialect == .spark,
      "\(sql)")
    #expect(sql.contains("AS INTEGER)"), "\(sql)")
    let middle = (
      id: "g", kind: "groupBy", params: #"{"by": [], "aggregate": {"m": "median(v)", "p": "quantile(k, 0.9)"}}"#
    )
    if dialect == .trino {
      #expect(throws: SQLExportError.self) { try script(middle, dialect) }
    } else {
      let sql = try script(middle, dialect)
      #expect(
        sql.contains(dialect == .duckdb ? "quantile_cont(" : dialect == .postgres ? "percentile_cont(" : "percentile("),
        "\(sql)")
    }
  }

  @Test func formatHasNoSQLFormAndSaysSo() {
    let json = SQLTestSupport.graph(
      [Self.reader, ("d", "derive", #"{"columns": {"p": "format(v, \".1%\")"}}"#)], [("t", "d", "table")])
    do {
      _ = try SQLTestSupport.export(json, nodes: ["d"], files: ["t.csv": Self.csv])
      Issue.record("format must not export")
    } catch let error as SQLExportError {
      #expect(error.description.contains("'format'") && error.description.contains("duckdb"), "\(error.description)")
    } catch {
      Issue.record("\(error)")
    }
  }
}
