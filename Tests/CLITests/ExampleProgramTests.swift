import Foundation
import Testing

/// The example programs of `Examples/` (executable targets built with the tests) run and print
/// exactly their golden output, so the README and the guide can never drift from the API.
@Suite struct ExampleProgramTests {
  /// The built example executable `name`, next to the `flow` binary.
  static func program(_ name: String) -> URL? {
    guard let flow = FlowProcess.binary else { return nil }
    let url = flow.deletingLastPathComponent().appendingPathComponent(name)
    return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
  }

  @Test(arguments: ["example-embedding", "example-custom-kind", "example-observe-values"])
  func exampleProgramPrintsItsGoldenOutput(name: String) async throws {
    let program = try #require(Self.program(name), "\(name) is not built next to flow")
    let result = try await FlowProcess.run([], executable: program)
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty, "\(result)")
    GoldenFile.expect(result.stdout, matches: "\(name).txt")
  }

  @Test func theEmbeddingExampleTakesTheDocumentPathAsAnArgument() async throws {
    let program = try #require(Self.program("example-embedding"))
    let result = try await FlowProcess.run([TestPaths.example("calculator.flow.json")], executable: program)
    #expect(result.status == 0, "\(result)")
    GoldenFile.expect(result.stdout, matches: "example-embedding.txt")
    let missing = try await FlowProcess.run(["Examples/no-such-file.flow.json"], executable: program)
    #expect(missing.status != 0)
  }
}
