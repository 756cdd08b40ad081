import Foundation
import Testing

/// A subgraph `input` of type `record` feeding `derive.columns` and `groupBy.aggregate`: the
/// instance's record reaches them in the order it was written, so a column may use one before
/// it and the output's columns follow it.
@Suite struct ParameterizedRecordSubgraphTests {
  static let document = """
    {
      "nodes": [
        {"id": "data", "data": {"kind": "readCSV", "params": {"path": "data.csv"}}},
        {"id": "scaled", "data": {"kind": "measure", "params": {"columns": {"z": "x * 10", "a": "z + 1"},
                                                                "totals": {"zs": "sum(z)", "as": "sum(a)"}}}}
      ],
      "edges": ["data.table -> scaled.table"],
      "flowRuntime": {"formatVersion": 1, "subgraphs": {"measure": {
        "nodes": [
          {"id": "table", "data": {"kind": "input", "params": {"name": "table", "type": "table"}}},
          {"id": "columns", "data": {"kind": "input", "params": {"name": "columns", "type": "record"}}},
          {"id": "totals", "data": {"kind": "input", "params": {"name": "totals", "type": "record"}}},
          {"id": "add", "data": {"kind": "derive", "params": {"columns": {"unused": "x"}}}},
          {"id": "sum", "data": {"kind": "groupBy", "params": {"by": [], "aggregate": {"n": "count()"}}}},
          {"id": "rows", "data": {"kind": "output", "params": {"name": "rows"}}},
          {"id": "total", "data": {"kind": "output", "params": {"name": "total"}}}
        ],
        "edges": ["table.value -> add.table", "columns.value -> add.columns", "add.table -> sum.table",
                  "totals.value -> sum.aggregate", "add.table -> rows.value", "sum.table -> total.value"]
      }}}
    }
    """

  @Test func aRecordParamKeepsItsOrderInsideTheDefinition() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("record-input-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("measure.flow.json")
    try Data(Self.document.utf8).write(to: file)
    try Data("x\n1\n2\n".utf8).write(to: folder.appendingPathComponent("data.csv"))
    let result = try await FlowProcess.run(["run", file.path, "--format", "json"])
    #expect(result.status == 0, "\(result)")
    let compact = result.stdout.filter { !$0.isWhitespace }
    #expect(compact.contains(#"[{"x":1,"z":10,"a":11},{"x":2,"z":20,"a":21}]"#), "\(result.stdout)")
    #expect(compact.contains(#"[{"zs":30,"as":32}]"#), "\(result.stdout)")
  }
}
