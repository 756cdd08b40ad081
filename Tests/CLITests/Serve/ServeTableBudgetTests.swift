import FlowGraph
import FlowRuntime
import Foundation
import Testing
@testable import FlowCommandLine

/// `flow serve --table-memory-budget SIZE`: parsed like the other sizes, bounded, and handed
/// to the served engine, whose dropped tables still show in `/state.json`.
@Suite(.serialized) struct ServeTableBudgetTests {
  static func budget(_ arguments: [String]) throws -> Int? {
    try ServeTableBudgetOption.budget(ArgumentParser.parse(["g.flow.json"] + arguments, as: ServeCommand.spec))
  }

  @Test func sizesAreParsedAndBounded() throws {
    #expect(try Self.budget([]) == nil)
    #expect(try Self.budget(["--table-memory-budget", "512M"]) == 512 << 20)
    #expect(try Self.budget(["--table-memory-budget", "2G"]) == 2 << 30)
    #expect(try Self.budget(["--table-memory-budget", "0"]) == 0)
    #expect(try Self.budget(["--table-memory-budget", "16T"]) == 16 << 40)
    for bad in ["17T", "-1", "lots", "2X"] {
      do {
        _ = try Self.budget(["--table-memory-budget", bad])
        Issue.record("accepted \(bad)")
      } catch let failure as CommandFailure {
        #expect(failure.status == .usage)
        #expect(
          failure.lines.first?.contains("--table-memory-budget expects a size from 0 to 16T") == true,
          "\(failure.lines)")
      }
    }
    #expect(ServeCommand.spec.options.contains { $0.name == "--table-memory-budget" })
  }

  @Test func theServedEngineDropsTablesAndStillServesTheirValues() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-serve-budget-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try "k,x\n1,5\n2,15\n3,25\n".write(to: folder.appendingPathComponent("data.csv"), atomically: true, encoding: .utf8)
    let file = folder.appendingPathComponent("pipeline.flow.json")
    try """
    {"nodes": [
      {"id": "read", "data": {"kind": "readCSV", "params": {"path": "data.csv"}}},
      {"id": "big", "data": {"kind": "filter", "params": {"where": "x > 10"}}},
      {"id": "sorted", "data": {"kind": "sort", "params": {"by": ["-x"]}}}
    ], "edges": [
      {"id": "e1", "sourceNodeID": "read", "targetNodeID": "big"},
      {"id": "e2", "sourceNodeID": "big", "targetNodeID": "sorted"}
    ]}
    """.write(to: file, atomically: true, encoding: .utf8)
    let arguments = try ArgumentParser.parse(
      [file.path, "--port", "0", "--table-memory-budget", "0"], as: ServeCommand.spec)
    let context = CommandContext(stderrIsTerminal: false, write: { _ in }, warn: { _ in }, writeDiagnostic: { _ in })
    let session = try ServeCommand.start(arguments, context: context, watchInterval: nil)
    await session.awaitFirstPass()
    let stats = try #require(await session.engine.tableMemory)
    #expect(stats.budget == 0 && stats.dropped == ["big", "sorted"] && stats.heldBytes == 0)
    let sorted = try #require(await session.engine.outputs(of: "sorted")?["table"]?.tableValue)
    #expect(sorted.rowCount == 2 && sorted.column(named: "x")?[0] == .integer(25))
    await session.stop()
  }
}
