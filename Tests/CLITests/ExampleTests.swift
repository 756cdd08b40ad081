import Foundation
import Testing

/// Every saved graph in `Examples/` validates and runs cleanly.
@Suite struct ExampleTests {
  static let examples = TestPaths.exampleNames

  @Test func thereAreExamples() {
    #expect(Self.examples.count >= 2, "found \(Self.examples) in \(TestPaths.packageRoot.path)/Examples")
  }

  @Test(arguments: examples)
  func exampleValidates(example: String) async throws {
    let result = try await FlowProcess.run(["validate", TestPaths.example(example)])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains(": valid ("))
  }

  @Test(arguments: examples)
  func exampleRunsWithoutFailures(example: String) async throws {
    let result = try await FlowProcess.run(["run", TestPaths.example(example), "--all", "--format", "json"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty)
    let root = try #require(try parseJSON(result.stdout) as? [String: Any])
    #expect((root["errors"] as? [String: Any])?.isEmpty == true)
    #expect((root["outputs"] as? [String: Any])?.isEmpty == false)
  }
}
