import Foundation
import Testing

/// `flow validate`, and what `run` and `validate` do with files that are not valid documents.
@Suite struct ValidateCommandTests {
  // MARK: - Valid files

  @Test(arguments: ["calculator.flow.json", "cylinder.flow.json"])
  func validFileExitsZeroWithASummary(example: String) async throws {
    let path = TestPaths.example(example)
    let result = try await FlowProcess.run(["validate", path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(result.stdout.hasPrefix("\(path): valid ("))
  }

  @Test func summaryCountsNodesAndEdges() async throws {
    let result = try await FlowProcess.run(["validate", TestPaths.example("cylinder.flow.json")])
    #expect(result.stdout == "Examples/cylinder.flow.json: valid (7 nodes, 7 edges)\n")
  }

  @Test func validateDoesNotEvaluate() async throws {
    // Division by zero is an evaluation failure, not a validation one.
    let result = try await FlowProcess.run(["validate", TestPaths.fixture("division-by-zero.flow.json")])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("valid (6 nodes, 4 edges)"))
  }

  @Test func validateReadsStandardInputForDash() async throws {
    let result = try await FlowProcess.run(["validate", "-"], stdin: #"{"nodes": [], "edges": []}"#)
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == "-: valid (0 nodes, 0 edges)\n")
  }

  @Test func oneNodeAndOneEdgeAreSaidInTheSingular() async throws {
    let document =
      #"{"nodes": [{"id": "a", "data": {"kind": "number"}}, {"id": "b", "data": {"kind": "add"}}], "edges": ["a.value -> b.a"]}"#
    let result = try await FlowProcess.run(["validate", "-"], stdin: document)
    #expect(result.stdout == "-: valid (2 nodes, 1 edge)\n", "\(result)")
  }

  @Test(arguments: [["validate"], ["validate", "a", "b"], ["validate", "--format", "json", "x"]])
  func validateMisuseIsAUsageError(arguments: [String]) async throws {
    let result = try await FlowProcess.run(arguments)
    #expect(result.status == 64, "\(result)")
    #expect(result.stdout.isEmpty)
  }

  // MARK: - Broken files

  /// A file `run` and `validate` must reject with exit status 2.
  struct BrokenFile: Sendable, CustomTestStringConvertible {
    var path: String
    /// Words stderr must contain: the node, edge, handle or param concerned, or where in the file.
    var mentions: [String]
    /// Words stderr must not contain (ids that are not part of the problem).
    var absent: [String] = []
    var testDescription: String { (path as NSString).lastPathComponent }

    init(_ fixture: String, _ mentions: [String], absent: [String] = []) {
      self.path = TestPaths.fixture(fixture)
      self.mentions = mentions
      self.absent = absent
    }

    init(path: String, _ mentions: [String]) {
      self.path = path
      self.mentions = mentions
    }
  }

  static let brokenFiles: [BrokenFile] = [
    BrokenFile(path: TestPaths.fixture("does-not-exist.flow.json"), ["does-not-exist.flow.json", "no such file"]),
    BrokenFile(path: "Tests/CLITests/Fixtures", ["Tests/CLITests/Fixtures", "directory"]),
    BrokenFile("empty.flow.json", ["empty.flow.json:1:1:", "empty"]),
    BrokenFile("truncated.flow.json", ["truncated.flow.json:4:40:"], absent: ["line 4"]),
    BrokenFile("invalid-utf8.flow.json", ["invalid-utf8.flow.json:1:37:", "UTF-8"]),
    BrokenFile("deeply-nested.flow.json", ["deeply-nested.flow.json:1:", "nesting"]),
    BrokenFile("not-an-object.flow.json", ["object", "array"]),
    BrokenFile("no-nodes.flow.json", ["'nodes'"]),
    BrokenFile("missing-kind.flow.json", ["'nameless'", "'kind'"]),
    BrokenFile("future-version.flow.json", ["format version 99"]),
    BrokenFile("unknown-kind.flow.json", ["'mystery'", "'teleport'"]),
    BrokenFile("invalid-param.flow.json", ["node 'a'", "'colour'"]),
    BrokenFile("duplicate-ids.flow.json", ["'twin'", "'link'", "2 problems"]),
    BrokenFile("handles-disagree.flow.json", ["'sum'", "handle 'b'"]),
    BrokenFile("dangling-edge.flow.json", ["'e2'", "'ghost'"], absent: ["'e1'"]),
    BrokenFile("cycle.flow.json", ["cycle", "alpha", "beta", "gamma"], absent: ["start"]),
    BrokenFile("self-loop.flow.json", ["cycle", "loop → loop"]),
    BrokenFile("two-into-one.flow.json", ["'sum'", "'a'", "fromX", "fromY"]),
    BrokenFile("unknown-handle.flow.json", ["'e1'", "'sum'", "'c'"]),
    BrokenFile("wrong-direction.flow.json", ["'e1'", "'sum'", "'result'"]),
    BrokenFile("ambiguous-handle.flow.json", ["'e1'", "'sum'", "handle"]),
    BrokenFile("bad-formula.flow.json", ["'calc'", "'formula'", "column 10"]),
    BrokenFile(
      "several-problems.flow.json",
      ["node 'a'", "'value'", "'b'", "'warp'", "'e2'", "'nowhere'", "3 problems"])
  ]

  @Test(arguments: brokenFiles, ["run", "validate"])
  func brokenFileExitsTwoAndNamesTheProblem(_ file: BrokenFile, command: String) async throws {
    let result = try await FlowProcess.run([command, file.path])
    #expect(result.status == 2, "\(result)")
    #expect(result.stdout.isEmpty, "\(result)")
    #expect(!result.stderr.contains("Fatal error"))
    for word in file.mentions { #expect(result.stderr.contains(word), "stderr should name \(word): \(result.stderr)") }
    for word in file.absent {
      #expect(!result.stderr.contains(word), "stderr should not name \(word): \(result.stderr)")
    }
  }

  @Test func brokenFileIsRejectedWhateverTheRunOptions() async throws {
    let result = try await FlowProcess.run(["run", TestPaths.fixture("cycle.flow.json"), "--format", "json", "--all"])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
  }

  @Test func diagnosticLinesNameTheFile() async throws {
    let path = TestPaths.fixture("several-problems.flow.json")
    let result = try await FlowProcess.run(["validate", path])
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 4)
    for line in lines { #expect(line.hasPrefix("\(path): ")) }
  }

  @Test func severalProblemsMatchGolden() async throws {
    let result = try await FlowProcess.run(["validate", TestPaths.fixture("several-problems.flow.json")])
    GoldenFile.expect(result.stderr, matches: "validate-several-problems.stderr.txt")
  }

  // MARK: - Never a crash

  static var everyFixture: [String] {
    let folder = TestPaths.testsFolder.appendingPathComponent("Fixtures")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
  }

  @Test(arguments: everyFixture, [["run"], ["run", "--all", "--format", "json"], ["validate"]])
  func everyFixtureEndsWithADocumentedStatus(fixture: String, command: [String]) async throws {
    let result = try await FlowProcess.run([command[0], TestPaths.fixture(fixture)] + command.dropFirst())
    #expect(result.endedCleanly, "\(result)")
    if result.status == 2 { #expect(!result.stderr.isEmpty && result.stdout.isEmpty) }
  }
}
