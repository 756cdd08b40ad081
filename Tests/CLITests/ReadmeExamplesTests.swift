import Foundation
import Testing

/// The README's command-line examples, run: what the README shows is what `flow` prints.
@Suite struct ReadmeExamplesTests {
  static func readme() throws -> String {
    try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
  }

  /// The lines of the README's fenced block that begins with the line `firstLine`, up to the
  /// closing fence (empty if there is no such block).
  static func block(startingWith firstLine: String) throws -> [String] {
    let lines = try readme().components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: firstLine), lines.indices.contains(start - 1),
      lines[start - 1].hasPrefix("```")
    else { return [] }
    let end = lines[start...].firstIndex(of: "```") ?? lines.endIndex
    return Array(lines[start..<end])
  }

  @Test func theQuickStartPrintsWhatTheReadmeSays() async throws {
    let readme = try Self.readme()
    #expect(readme.contains("\nswift run flow run Examples/calculator.flow.json\nswift test\n"))
    let result = try await FlowProcess.run(["run", "Examples/calculator.flow.json"])
    #expect(result.status == 0, "\(result)")
    for line in ["perPerson.result = 20", "tip.result = 9"] {
      #expect(readme.contains("`\(line)`"))
      #expect(result.stdout.contains(line + "\n"), "\(result)")
    }
    #expect(readme.contains("`--set quantity.value=10`"))
    let changed = try await FlowProcess.run(["run", "Examples/calculator.flow.json", "--set", "quantity.value=10"])
    #expect(changed.stdout == "perPerson.result = 50\ntip.result = 22.5\n", "\(changed)")
  }

  @Test func theDocumentExampleRuns() async throws {
    let document = try Self.block(startingWith: "{")
    try #require(document.count > 5, "the README has no JSON document block")
    #expect(document.joined().contains("\"formula\": \"pi * r^2\""))
    let result = try await FlowProcess.run(["run", "-"], stdin: document.joined(separator: "\n"))
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == "area.result = 12.566370614359172\n", "\(result)")
  }

  /// Every `> ` line is a command; every other line is what `flow calc` prints, in order.
  @Test func theCalculatorTranscriptIsWhatFlowCalcPrints() async throws {
    let transcript = try Self.block(startingWith: "$ flow calc").dropFirst()
    try #require(transcript.count > 4, "the README has no '$ flow calc' block")
    let commands = transcript.filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
    let printed = transcript.filter { !$0.hasPrefix("> ") }
    let result = try await FlowProcess.run(["calc"], stdin: commands.joined(separator: "\n") + "\n")
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty, "\(result)")
    #expect(result.stdout == printed.map { $0 + "\n" }.joined(), "\(result)")
  }

  /// The penguins block: the outputs `flow run` prints (paths shortened to `/…/`) and the
  /// summary it writes, run on a copy of the folder.
  @Test func thePenguinsRunIsWhatTheReadmeShows() async throws {
    let block = try Self.block(startingWith: "$ swift run flow run Examples/penguins/report.flow.json")
    let cat = "$ cat Examples/penguins/output/summary.txt"
    let split = try #require(block.firstIndex(of: cat), "the README's penguins block has no '\(cat)'")
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flow-readme-penguins-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.copyItem(
      atPath: TestPaths.packageRoot.appendingPathComponent("Examples/penguins").path, toPath: root)
    let result = try await FlowProcess.run(["run", root + "/report.flow.json"])
    #expect(result.status == 0, "\(result)")
    let shown = block[1..<split].map { $0.replacingOccurrences(of: "/…/Examples/penguins/", with: root + "/") + "\n" }
    #expect(result.stdout == shown.joined(), "\(result)")
    let summary = try String(contentsOfFile: root + "/output/summary.txt", encoding: .utf8)
    #expect(summary == block[(split + 1)...].map { $0 + "\n" }.joined())
  }
}
