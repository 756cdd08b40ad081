import FlowSQL
import Testing

/// The scripts of the example pipelines, per dialect, locked as golden files (reviewed by hand
/// once; `RECORD_SNAPSHOTS=1` re-records them). DuckDB runs them in `Scripts/verify-sql.sh`.
@Suite struct SQLGoldenTests {
  @Test(arguments: SQLDialect.allCases)
  func penguinsReport(dialect: SQLDialect) throws {
    let folder = SQLTestSupport.fixture("penguins")
    let document = try SQLTestSupport.document(folder + "/report.flow.json")
    let script = try SQLTestSupport.exporter(dialect, documentFolder: folder)
      .script(for: document, nodes: ["saveCSV", "saveJSON"])
    SQLTestSupport.expect(script, matchesGolden: "penguins.\(dialect.rawValue).sql")
  }

  @Test(arguments: SQLDialect.allCases)
  func flights(dialect: SQLDialect) throws {
    let folder = SQLTestSupport.fixture("flights")
    let document = try SQLTestSupport.document(folder + "/flights.flow.json")
    let script = try SQLTestSupport.exporter(dialect, documentFolder: folder).script(for: document)
    SQLTestSupport.expect(script, matchesGolden: "flights.\(dialect.rawValue).sql")
  }

  @Test func theWholePenguinsGraphIsRefusedNamingTheFirstScalarNode() throws {
    let folder = SQLTestSupport.fixture("penguins")
    let document = try SQLTestSupport.document(folder + "/report.flow.json")
    #expect {
      try SQLTestSupport.exporter(.duckdb, documentFolder: folder).script(for: document)
    } throws: { error in
      guard let error = error as? SQLExportError else { return false }
      return error.node == "birds" && error.reason.contains("rowCount") && error.reason.contains("--node")
    }
  }
}
