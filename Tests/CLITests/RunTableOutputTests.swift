import Foundation
import Testing

/// `flow run --head N`, `--schema` and `--format csv`: looking at a table from the terminal.
@Suite struct RunTableOutputTests {
  /// A folder holding `data.csv` (25 rows, a cell that needs quoting) and a pipeline reading it
  /// into two sinks: `sorted` (a table) and `count` (a number), plus `one.flow.json` whose only
  /// sink is the table.
  struct Pipeline {
    let folder: URL
    var two: String { folder.appendingPathComponent("two.flow.json").path }
    var one: String { folder.appendingPathComponent("one.flow.json").path }

    init() throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-run-tables-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      var csv = "k,name,x\n"
      for row in 1...25 { csv += "\(row),\(row == 3 ? "\"a, \"\"quoted\"\" one\"" : "n\(row)"),\(Double(row) / 2)\n" }
      try csv.write(to: folder.appendingPathComponent("data.csv"), atomically: true, encoding: .utf8)
      let read = #"{"id": "read", "data": {"kind": "readCSV", "params": {"path": "data.csv"}}}"#
      let sorted = #"{"id": "sorted", "data": {"kind": "sort", "params": {"by": ["k"]}}}"#
      let edge = #"{"id": "e1", "sourceNodeID": "read", "targetNodeID": "sorted"}"#
      try #"{"nodes": [\#(read), \#(sorted)], "edges": [\#(edge)]}"#
        .write(to: folder.appendingPathComponent("one.flow.json"), atomically: true, encoding: .utf8)
      let count = #"{"id": "count", "data": {"kind": "number", "params": {"value": 2}}}"#
      try #"{"nodes": [\#(read), \#(sorted), \#(count)], "edges": [\#(edge)]}"#
        .write(to: folder.appendingPathComponent("two.flow.json"), atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
  }

  @Test func headPrintsThatManyRowsOfEachTable() async throws {
    let pipeline = try Pipeline()
    defer { pipeline.remove() }
    let standard = try await FlowProcess.run(["run", pipeline.one])
    #expect(standard.status == 0, "\(standard)")
    #expect(standard.stdout.contains("… 5 more rows"), "the default is 20 rows: \(standard.stdout)")
    let three = try await FlowProcess.run(["run", pipeline.one, "--head", "3"])
    #expect(three.status == 0, "\(three)")
    let lines = three.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "sorted.table = table (25 rows × 3 columns)")
    #expect(lines.count == 6, "a header, the column names, 3 rows and the rest: \(lines)")
    #expect(lines.last == "  … 22 more rows")
    let all = try await FlowProcess.run(["run", pipeline.one, "--head", "100"])
    #expect(!all.stdout.contains("more row") && all.stdout.contains("n25"), "\(all.stdout)")
  }

  @Test(arguments: ["-1", "lots", ""])
  func aBadHeadIsAUsageError(_ value: String) async throws {
    let result = try await FlowProcess.run(["run", TestPaths.example("calculator.flow.json"), "--head", value])
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains("--head expects a whole number of rows"), "\(result)")
  }

  @Test func schemaPrintsColumnsAndTypesOnly() async throws {
    let pipeline = try Pipeline()
    defer { pipeline.remove() }
    let text = try await FlowProcess.run(["run", pipeline.two, "--schema"])
    #expect(text.status == 0, "\(text)")
    #expect(
      text.stdout == """
        count.value = 2
        sorted.table = table (25 rows × 3 columns)
          k     integer
          name  string
          x     number

        """, "\(text.stdout)")
    let json = try await FlowProcess.run(["run", pipeline.one, "--schema", "--format", "json"])
    let root = try #require(try parseJSON(json.stdout) as? [String: Any])
    let table = try #require((root["outputs"] as? [String: [String: Any]])?["sorted"]?["table"] as? [String: Any])
    #expect(table["rows"] as? Int == 25)
    let columns = try #require(table["columns"] as? [[String: String]])
    #expect(
      columns == [["name": "k", "type": "integer"], ["name": "name", "type": "string"], ["name": "x", "type": "number"]]
    )
  }

  @Test func csvPrintsTheOneTableWithTheWritersQuoting() async throws {
    let pipeline = try Pipeline()
    defer { pipeline.remove() }
    let result = try await FlowProcess.run(["run", pipeline.one, "--format", "csv"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.count == 27, "a header, 25 rows and the final line end")
    #expect(lines[0] == "k,name,x")
    #expect(lines[1] == "1,n1,0.5")
    #expect(lines[2] == "2,n2,1")
    #expect(lines[3] == #"3,"a, ""quoted"" one",1.5"#)
    #expect(lines.last == "")
    // `--node` chooses the table when the sinks hold more than one value.
    let chosen = try await FlowProcess.run(["run", pipeline.two, "--format", "csv", "--node", "sorted"])
    #expect(chosen.status == 0 && chosen.stdout == result.stdout, "\(chosen)")
  }

  @Test func csvWithoutExactlyOneTableIsAUsageErrorNamingWhatItFound() async throws {
    let pipeline = try Pipeline()
    defer { pipeline.remove() }
    let none = try await FlowProcess.run(["run", TestPaths.example("calculator.flow.json"), "--format", "csv"])
    #expect(none.status == 64, "\(none)")
    #expect(none.stdout.isEmpty)
    #expect(
      none.stderr.contains("--format csv prints exactly one table, and the printed nodes have no table"), "\(none)")
    let two = try await FlowProcess.run(["run", pipeline.two, "--format", "csv", "--all"])
    #expect(two.status == 64, "\(two)")
    #expect(two.stderr.contains("2 tables ('read.table', 'sorted.table')"), "\(two)")
    let schema = try await FlowProcess.run(["run", pipeline.one, "--format", "csv", "--schema"])
    #expect(schema.status == 64 && schema.stderr.contains("cannot take --schema"), "\(schema)")
  }

  @Test func csvOfAFailedRunSaysWhyOnStderr() async throws {
    let pipeline = try Pipeline()
    defer { pipeline.remove() }
    let result = try await FlowProcess.run(["run", pipeline.one, "--format", "csv", "--set", "read.path=missing.csv"])
    #expect(result.status == 1, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("read ! "), "\(result)")
  }
}
