import Foundation
import Testing

/// `flow export FILE --sql`: the script on stdout or `-o`, exit 1 naming a node that cannot be
/// exported, 2 for an invalid document (Reference.md, "SQL export").
@Suite struct ExportCommandTests {
  @Test func penguinsWritersExportToDuckDB() async throws {
    let result = try await FlowProcess.run([
      "export", "Examples/penguins/report.flow.json", "--sql", "--node", "saveCSV", "--node", "saveJSON"
    ])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("COPY (SELECT \"species\", \"island\", \"birds\""))
    #expect(result.stdout.contains("TO 'output/summary.csv' (FORMAT CSV, HEADER true, DELIMITER ',');"))
    #expect(result.stderr.isEmpty)
  }

  @Test func theWholePenguinsGraphNamesTheNodeWithoutSQL() async throws {
    let result = try await FlowProcess.run([
      "export", "Examples/penguins/report.flow.json", "--sql", "--dialect", "postgres"
    ])
    #expect(result.status == 1, "\(result)")
    #expect(result.stdout.isEmpty)
    // Every node without an SQL form, one line each, in topological order.
    let lines = result.stderr.split(separator: "\n")
    #expect(
      lines.first
        == "flow: cannot export to postgres: node 'birds': rowCount gives a scalar or a list, not a table; only table kinds export (choose table sinks with --node)"
    )
    for id in ["measuredCount", "groupCount", "topIsland", "topIslandName", "topSpecies", "topName"] {
      #expect(lines.contains { $0.hasPrefix("flow: cannot export to postgres: node '\(id)': ") }, "\(id)")
    }
  }

  @Test func anUnreadableSourceIsExitOne() async throws {
    // Examples/flights has no flights.csv in the repository (flow-bench W9 generates one).
    let result = try await FlowProcess.run(["export", "Examples/flights/flights.flow.json", "--sql"])
    #expect(result.status == 1, "\(result)")
    #expect(result.stderr.contains("node 'flights': cannot read the file to infer its column types"))
  }

  @Test func anInvalidDocumentIsExitTwo() async throws {
    let result = try await FlowProcess.run(
      ["export", "-", "--sql"], stdin: #"{"nodes": [{"id": "a", "data": {"kind": "nope"}}], "edges": []}"#)
    #expect(result.status == 2, "\(result)")
  }

  @Test(arguments: [
    ["export", "Examples/calculator.flow.json"],
    ["export", "Examples/calculator.flow.json", "--sql", "--dialect", "mysql"],
    ["export", "Examples/penguins/report.flow.json", "--sql", "--node", "nope"]
  ])
  func misuseIsAUsageError(arguments: [String]) async throws {
    let result = try await FlowProcess.run(arguments)
    #expect(result.status == 64, "\(result)")
  }

  @Test func dashOWritesTheScriptAtomically() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("q.sql").path
    let result = try await FlowProcess.run([
      "export", "Examples/penguins/report.flow.json", "--sql", "--dialect", "spark",
      "--node", "ordered", "-o", target
    ])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.isEmpty)
    let script = try String(contentsOfFile: target, encoding: .utf8)
    #expect(script.hasPrefix("-- flow export --sql --dialect spark: 8 nodes.\n"))
    #expect(
      script.hasSuffix(
        "SELECT `species`, `island`, `birds`, `heavy_birds`, `mean_mass_kg`, `lightest_g`, `heaviest_g`, `max_flipper_mm`, `mean_bill_mm`, `scientific_name` FROM `ordered` ORDER BY `__flow_row`;\n"
      ))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["q.sql"])
  }
}
