import Foundation
import FlowGraph
import FlowRuntime
import Testing
@testable import FlowCommandLine

/// `flow run` keeps integers exact (Reference.md, "Documents"): `--set` parses them exactly, and the text and JSON
/// outputs write them digit for digit.
@Suite struct ExactIntegerCommandTests {
  @Test(arguments: ["9223372036854775806", "9223372036854775807", "-9223372036854775808", "9007199254740993"])
  func setParsesIntegersExactly(value: String) throws {
    var document = SetArgumentTests.document
    try RunCommand.apply("r.count=\(value)", to: &document, context: SetArgumentTests.context())
    #expect(document.nodes[1].data.params["count"]?.isIdentical(to: .integer(try #require(Int64(value)))) == true)
  }

  @Test func setRejectsAnIntegerParamBeyondInt64() {
    var document = SetArgumentTests.document
    #expect(throws: CommandFailure.self) {
      try RunCommand.apply("r.count=9223372036854775808", to: &document, context: SetArgumentTests.context())
    }
  }

  /// A folder with `data.json`, `data.csv` and a document reading them, plus a `format` node
  /// printing its `any` input `x`.
  static func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-ints-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(
      #"{"list": [9007199254740993, 9223372036854775807, -9223372036854775808], "over": 9223372036854775808}"#.utf8
    )
    .write(to: folder.appendingPathComponent("data.json"))
    try Data("n\n9007199254740993\n9223372036854775807\n-9223372036854775808\n".utf8).write(
      to: folder.appendingPathComponent("data.csv"))
    let document = """
      {"nodes": [
        {"id": "json", "data": {"kind": "readJSON", "params": {"path": "data.json"}}},
        {"id": "csv", "data": {"kind": "readCSV", "params": {"path": "data.csv"}}},
        {"id": "f", "data": {"kind": "format", "params": {"template": "{x}", "x": 9223372036854775807}}}
      ], "edges": []}
      """
    try Data(document.utf8).write(to: folder.appendingPathComponent("ints.flow.json"))
    return folder
  }

  @Test func runWritesIntegersDigitForDigitAsJSON() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try await FlowProcess.run([
      "run", folder.appendingPathComponent("ints.flow.json").path, "--format", "json"
    ])
    #expect(result.status == 0, "\(result)")
    let compact = result.stdout.filter { !$0.isWhitespace }
    #expect(compact.contains(#""list":[9007199254740993,9223372036854775807,-9223372036854775808]"#), "\(result)")
    #expect(compact.contains(#""over":9.223372036854776e+18"#))
    #expect(
      compact.contains(#""table":[{"n":9007199254740993},{"n":9223372036854775807},{"n":-9223372036854775808}]"#),
      "\(result)")
    #expect(compact.contains(#""text":"9223372036854775807""#))
  }

  @Test func runWritesIntegersDigitForDigitAsText() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try await FlowProcess.run(["run", folder.appendingPathComponent("ints.flow.json").path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("[9007199254740993,9223372036854775807,-9223372036854775808]"), "\(result)")
    #expect(result.stdout.contains("f.text = 9223372036854775807"), "\(result)")
    for n in ["9007199254740993", "9223372036854775807", "-9223372036854775808"] {
      #expect(result.stdout.components(separatedBy: n).count >= 3, "\(n) in the list and in the table: \(result)")
    }
  }

  @Test func runWithSetUsesTheExactInteger() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try await FlowProcess.run([
      "run", folder.appendingPathComponent("ints.flow.json").path,
      "--set", "f.x=9223372036854775806", "--node", "f", "--format", "json"
    ])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.filter { !$0.isWhitespace }.contains(#""text":"9223372036854775806""#), "\(result)")
  }
}
