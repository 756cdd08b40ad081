import Foundation
import Testing

/// The habits of Swift tools: `--version`, `flow help <command>`, "did you mean" for unknown
/// commands, options and kinds, and JSON errors located once.
@Suite struct HelpAndSuggestionTests {
  @Test func versionPrintsTheToolAndItsVersion() async throws {
    let result = try await FlowProcess.run(["--version"])
    #expect(result.status == 0)
    #expect(result.stdout.wholeMatch(of: /flow \d+\.\d+\.\d+\n/) != nil, "\(result)")
  }

  @Test(arguments: ["run", "validate", "nodes", "render", "layout", "calc"])
  func helpCommandPrintsTheCommandsHelp(command: String) async throws {
    let viaHelp = try await FlowProcess.run(["help", command])
    let viaFlag = try await FlowProcess.run([command, "--help"])
    #expect(viaHelp.status == 0)
    #expect(viaHelp.stdout == viaFlag.stdout)
    #expect(!viaHelp.stdout.isEmpty)
  }

  @Test func helpFormulasListsEveryFunctionWithAnExample() async throws {
    let result = try await FlowProcess.run(["help", "formulas"])
    #expect(result.status == 0)
    for line in [
      "  len         the number of Unicode scalars", "e.g. len(\"Zürich\") → 6",
      "e.g. round(2.675, 2) → 2.68", "  coalesce ", "e.g. 2 in (1, 2) → true", "  substr "
    ] {
      #expect(result.stdout.contains(line), "\(line)")
    }
  }

  @Test(arguments: [
    (["rnu", "Examples/calculator.flow.json"], "did-you-mean-command.stderr.txt"),
    (["help", "rendr"], "did-you-mean-help.stderr.txt"),
    (["run", "Examples/calculator.flow.json", "--fromat", "json"], "did-you-mean-option.stderr.txt"),
    (["render", "Examples/calculator.flow.json", "--vaules"], "did-you-mean-render-option.stderr.txt"),
    (["--verison"], "did-you-mean-top-option.stderr.txt")
  ])
  func unknownNamesSuggestTheClosest(arguments: [String], golden: String) async throws {
    let result = try await FlowProcess.run(arguments)
    #expect(result.status == 64, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("did you mean '"))
    GoldenFile.expect(result.stderr, matches: golden)
  }

  @Test func aMisspeltNodeIDInRunSuggestsTheClosest() async throws {
    let result = try await FlowProcess.run(["run", "Examples/calculator.flow.json", "--node", "subtotl"])
    #expect(result.status == 64, "\(result)")
    #expect(
      result.stderr.contains("there is no node 'subtotl' in Examples/calculator.flow.json (did you mean 'subtotal'?)"),
      "\(result.stderr)")
  }

  @Test func farOffNamesSuggestNothing() async throws {
    let result = try await FlowProcess.run(["zzzzzzzz"])
    #expect(result.status == 64)
    #expect(!result.stderr.contains("did you mean"))
  }

  @Test func unknownKindsInADocumentSuggestTheClosestKind() async throws {
    let text = #"{"nodes": [{"id": "n", "data": {"kind": "multipy"}}], "edges": []}"#
    for command in ["validate", "run", "render", "layout"] {
      let result = try await FlowProcess.run([command, "-"], stdin: text)
      #expect(result.status == 2, "\(result)")
      #expect(
        result.stderr.contains("unknown kind 'multipy' (did you mean 'multiply'?)"), "\(command): \(result.stderr)")
    }
  }

  @Test func jsonSyntaxErrorsGiveTheirLocationOnce() async throws {
    let result = try await FlowProcess.run(["validate", "-"], stdin: "{\n  \"nodes\": [,]\n}\n")
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("-:2:13: error: invalid JSON: "), "\(result.stderr)")
    #expect(!result.stderr.contains("line 2"))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }
}
