import Foundation
import Testing

/// `flow run` and `flow render --values` with lazy inputs: the branch not taken does not run
/// and is reported (and drawn) as not needed; a failure `fallback` catches is no error.
@Suite struct LazyRunTests {
  @Test func theReportListsTheBranchNotTaken() async throws {
    let result = try await FlowProcess.run(["run", TestPaths.example("discount.flow.json"), "--report"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.hasPrefix("total.value = 112.5\n"))
    #expect(result.stdout.contains("  ran (6, in order): price"))
    #expect(result.stdout.contains("  not needed (1): shipping\n"))
  }

  @Test func aFreshRunRunsTheConditionThenTheChosenBranch() async throws {
    let result = try await FlowProcess.run([
      "run", TestPaths.example("discount.flow.json"), "--set", "quantity.value=4",
      "--report", "--format", "json"
    ])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("\"total\" : {\n      \"value\" : 54.95"), "\(result)")
    #expect(result.stdout.contains("\"notNeeded\" : [\n      \"discounted\"\n    ]"), "\(result)")
  }

  @Test func aCaughtFailureIsNoErrorOfTheRun() async throws {
    let result = try await FlowProcess.run([
      "run", TestPaths.fixture("fallback.flow.json"), "--report", "--format", "json"
    ])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("\"errors\" : {}"), "\(result)")
    #expect(result.stdout.contains("\"caught\" : {\n      \"value\" : \"division by zero\"\n    }"), "\(result)")
  }

  @Test func renderValuesDimsTheBranchNotTaken() async throws {
    let result = try await FlowProcess.run(["render", TestPaths.example("discount.flow.json"), "--values"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("<g class=\"node not-needed\" data-id=\"shipping\">"))
    #expect(result.stdout.contains(".node.not-needed { opacity: 0.4; }"))
  }

  @Test func theTraceNamesTheNodesNotNeeded() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lazy-trace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let trace = folder.appendingPathComponent("trace.json").path
    let result = try await FlowProcess.run(["run", TestPaths.example("discount.flow.json"), "--trace", trace])
    #expect(result.status == 0, "\(result)")
    let text = try String(contentsOfFile: trace, encoding: .utf8)
    #expect(text.contains("\"name\":\"not needed\"") || text.contains("\"name\" : \"not needed\""), "\(text)")
    #expect(text.contains("\"shipping\""))
  }

  @Test func thePipelineRecomputesWhenItsCacheIsMissing() async throws {
    let result = try await FlowProcess.run(["run", TestPaths.example("penguins/cached-counts.flow.json"), "--report"])
    #expect(result.status == 0, "a missing cache is caught: \(result)")
    #expect(result.stdout.contains("  Chinstrap     68\n"), "\(result)")
    #expect(result.stdout.contains("  caught (1): counts (cannot read "), "\(result)")
  }

  /// An instance's inputs are demanded through its inner nodes: the branch its inner `if` does
  /// not take is not needed, upstream included, and a failure there is no failure of the run.
  @Test func aSubgraphsLazyInputRunsOnlyWhenItsBranchIsTaken() async throws {
    let document = TestPaths.fixture("lazy-subgraph.flow.json")
    let taken = try await FlowProcess.run(["run", document, "--report"])
    #expect(taken.status == 0, "\(taken)")
    #expect(taken.stdout.hasPrefix("p.value = 2\n"), "\(taken)")
    #expect(taken.stdout.contains("  ran (6, in order): c "), "\(taken)")
    #expect(taken.stdout.contains("  not needed (2): p/b, y\n"), "\(taken)")
    let other = try await FlowProcess.run(["run", document, "--set", "c.value=0", "--report"])
    #expect(other.status == 1, "the branch now taken fails: \(other)")
    #expect(other.stdout.contains("  failed (1): y (division by zero)"), "\(other)")
    #expect(other.stdout.contains("  not needed (2): p/a, x\n"), "\(other)")
  }

  @Test func flowNodesListsASubgraphsLazyInputs() async throws {
    let document = TestPaths.fixture("lazy-subgraph.flow.json")
    let text = try await FlowProcess.run(["nodes", document])
    #expect(text.status == 0, "\(text)")
    #expect(
      text.stdout.contains(
        "  inputs:  cond: number (required), a: number (required) (lazy), b: number (required) (lazy)\n"), "\(text)")
    let bad = try await FlowProcess.run(["validate", "-"], stdin: Self.withLazy("\"yes\""))
    #expect(bad.status == 2, "\(bad)")
    #expect(bad.stderr.contains("param 'lazy' must be true or false, found \"yes\""), "\(bad)")
  }

  private static func withLazy(_ value: String) -> String {
    #"{"nodes": [], "edges": [], "flowRuntime": {"formatVersion": 1, "subgraphs": {"k": {"nodes": ["#
      + #"{"id": "a", "data": {"kind": "input", "params": {"name": "a", "lazy": "# + value + #"}}}], "edges": []}}}}"#
  }
}
