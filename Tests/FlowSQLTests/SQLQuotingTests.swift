@testable import FlowSQL
import Testing

/// Identifiers and string literals per dialect: quotes, backticks, spaces, Unicode, control
/// characters.
@Suite struct SQLQuotingTests {
  @Test func identifiersDoubleTheirQuoteCharacter() {
    #expect(SQLDialect.duckdb.quote(#"say "hi""#) == #""say ""hi""""#)
    #expect(SQLDialect.postgres.quote("body mass") == #""body mass""#)
    #expect(SQLDialect.trino.quote("Zürich 東京") == #""Zürich 東京""#)
    #expect(SQLDialect.spark.quote("tick`s") == "`tick``s`")
    #expect(
      SQLDialect.spark.quote("tick`s'") == "`tick``s\u{FFFD}`", "spark-sql's splitter reads a quote outside backquotes")
  }

  @Test func literalsDoubleQuotesAndSparkEscapesBackslashes() {
    for dialect in [SQLDialect.duckdb, .postgres, .trino] {
      #expect(dialect.literal("it's") == "'it''s'")
      #expect(dialect.literal(#"a\b"#) == #"'a\b'"#)
    }
    #expect(SQLDialect.spark.literal("it's") == #"'it\'s'"#)
    #expect(SQLDialect.spark.literal(#"a\b"#) == #"'a\\b'"#)
  }

  @Test func controlCharactersBecomeChrPieces() {
    #expect(SQLDialect.trino.literal("a\u{2028}b") == "('a' || chr(8232) || 'b')")
    #expect(SQLDialect.spark.literal("${x}") == "(chr(36) || '{x}')")
    #expect(SQLDialect.duckdb.literal("a\tb") == "('a' || chr(9) || 'b')")
    #expect(SQLDialect.postgres.literal("\n") == "(chr(10))")
    #expect(!SQLDialect.spark.literal("x\u{1B}[31m").unicodeScalars.contains { $0.value < 0x20 })
  }

  @Test func awkwardNodeIDsAndColumnsAreQuotedEverywhere() throws {
    let csv = "\"it's \"\"x\"\"\",`b` c,Zürich\n1,2,3\n"
    let json = SQLTestSupport.graph(
      [
        ("my \"node\"", "readCSV", #"{"path": "t.csv"}"#),
        ("sorted `x`", "sort", #"{"by": ["-Zürich"]}"#)
      ],
      [("my \"node\"", "sorted `x`", "table")])
    let duckdb = try SQLTestSupport.export(json, .duckdb, files: ["t.csv": csv])
    #expect(duckdb.contains(#"CREATE OR REPLACE TEMP VIEW "my ""node""" AS"#))
    #expect(duckdb.contains(#"'it''s "x"': 'VARCHAR'"#))
    #expect(duckdb.contains(#"CAST(trim("it's ""x""") AS BIGINT) AS "it's ""x""""#))
    #expect(duckdb.contains(#""Zürich" DESC NULLS LAST"#))
    // spark-sql's statement splitter does not know backquotes: `'` and `"` in a name are refused.
    #expect(throws: SQLExportError.self) { try SQLTestSupport.export(json, .spark, files: ["t.csv": csv]) }
    let sparkJSON = SQLTestSupport.graph(
      [("my node", "readCSV", #"{"path": "t.csv"}"#), ("sorted `x`", "sort", #"{"by": ["-Zürich"]}"#)],
      [("my node", "sorted `x`", "table")])
    let spark = try SQLTestSupport.export(sparkJSON, .spark, files: ["t.csv": "its x,`b` c,Zürich\n1,2,3\n"])
    #expect(spark.contains("CREATE OR REPLACE TEMPORARY VIEW `sorted ``x``` AS"))
    #expect(spark.contains("```b`` c` STRING"))
  }
}
