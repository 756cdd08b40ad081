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

/// The shared conformance cases (`../shared/conformance`), run by their own checker.
@Suite struct ConformanceTests {
  static let checker = TestPaths.packageRoot.appendingPathComponent("../shared/conformance/check.py").standardized
  static let cases = TestPaths.packageRoot.appendingPathComponent("../shared/conformance/cases").standardized

  /// `python3` on the `PATH`, if any.
  static let python: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  static var isAvailable: Bool {
    python != nil && FileManager.default.fileExists(atPath: checker.path)
      && FileManager.default.fileExists(atPath: cases.path) && FlowProcess.binary != nil
  }

  @Test(.enabled(if: isAvailable, "needs python3 on the PATH and ../shared/conformance next to the package"))
  func sharedConformanceCasesPass() async throws {
    let python = try #require(Self.python)
    let binary = try #require(FlowProcess.binary)
    let result = try await FlowProcess.run([Self.checker.path, binary.path, Self.cases.path], executable: python)
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains(" passed, 0 failed"), "\(result)")
  }
}
