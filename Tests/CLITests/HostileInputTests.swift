import Foundation
import Testing

/// Documents built to break `flow`: each ends with exit status 2 and a diagnostic, never a trap,
/// and a flood of problems prints a bounded report.
@Suite struct HostileInputTests {
  @Test(arguments: ["run", "validate"], ["1e300", "-1e300", "9223372036854775808", "1.5"])
  func formatVersionThatFitsNoIntegerIsADiagnostic(_ command: String, _ number: String) async throws {
    let document = #"{"flowRuntime": {"formatVersion": \#(number)}, "nodes": [], "edges": []}"#
    let result = try await FlowProcess.run([command, "-"], stdin: document)
    #expect(result.status == 2, "\(result)")
    #expect(result.stderr.contains("formatVersion"), "\(result)")
    #expect(result.endedCleanly)
  }

  @Test(arguments: ["run", "validate"])
  func aFloodOfProblemsPrintsTheFirstHundredAndACount(_ command: String) async throws {
    let count = 5_000
    let document = #"{"nodes": ["# + Array(repeating: "1", count: count).joined(separator: ",") + #"], "edges": []}"#
    let result = try await FlowProcess.run([command, "-"], stdin: document)
    #expect(result.status == 2)
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 102, "\(lines.suffix(3))")
    #expect(lines.first == "-: error: nodes[0] must be an object, found number")
    #expect(lines.dropLast().last == "-: … and 4900 more problems")
    #expect(lines.last == "-: 5000 problems found")
  }

  @Test func aFloodOfUnknownKindsIsCappedToo() async throws {
    let nodes = (0..<300).map { #"{"id": "n\#($0)", "data": {"kind": "mystery"}}"# }
    let document = #"{"nodes": [\#(nodes.joined(separator: ","))], "edges": []}"#
    let result = try await FlowProcess.run(["run", "-"], stdin: document)
    #expect(result.status == 2)
    #expect(result.stderr.contains("node 'n99' has unknown kind"))
    #expect(!result.stderr.contains("node 'n100' "))
    #expect(result.stderr.hasSuffix("-: … and 200 more problems\n-: 300 problems found\n"), "\(result)")
  }
}
