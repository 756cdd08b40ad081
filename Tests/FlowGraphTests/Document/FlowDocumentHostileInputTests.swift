import Testing

import FlowGraph
import FlowTestSupport

/// Documents built to break the decoder: numbers that fit no integer, repeated keys, floods of
/// problems. Each must end in a diagnostic, never a trap.
@Suite struct FlowDocumentHostileInputTests {
  /// The issues of decoding `text`, or `[]` when it decodes.
  private func issues(_ text: String) -> [GraphIssue] {
    do {
      _ = try FlowDocument(jsonText: text)
      return []
    } catch {
      guard case .invalid(let invalid) = error else {
        Issue.record("expected a shape problem, got \(error)")
        return []
      }
      return invalid.issues
    }
  }

  @Test(arguments: ["1e300", "-1e300", "9223372036854775808", "18446744073709551616", "1e19", "9.3e18"])
  func formatVersionThatFitsNoIntegerIsReportedNotTrapped(_ number: String) {
    let found = issues(#"{"flowRuntime": {"formatVersion": \#(number)}, "nodes": [], "edges": []}"#)
    #expect(found.count == 1)
    #expect(
      found.first?.message.contains("formatVersion") == true || found.first?.message.contains("format version") == true,
      "\(found)")
  }

  @Test func formatVersionNegativeZeroReadsAsVersionZero() {
    #expect(issues(#"{"flowRuntime": {"formatVersion": -0}, "nodes": [], "edges": []}"#).isEmpty)
  }

  @Test func largeButRepresentableFutureVersionIsNamedInTheMessage() {
    let found = issues(#"{"flowRuntime": {"formatVersion": 4000000000}, "nodes": [], "edges": []}"#)
    #expect(found.map(\.code) == [.unsupportedFormatVersion])
    #expect(found.first?.message.contains("format version 4000000000 ") == true, "\(found)")
  }

  @Test(arguments: ["1e300", "-1e300", "9223372036854775808", "-9223372036854775809", "1e16", "0.5"])
  func zIndexThatIsNoIntegerIsReported(_ number: String) {
    let found = issues(#"{"nodes": [{"id": "n", "data": {"kind": "number"}, "zIndex": \#(number)}], "edges": []}"#)
    #expect(found.map(\.code) == [.malformedDocument])
    #expect(found.first?.message.contains("'zIndex'") == true)
  }

  @Test func zIndexAtTheEdgesOfTheRangeIsKept() throws {
    let document = try FlowDocument(
      jsonText: #"{"nodes": [{"id": "n", "data": {"kind": "number"}, "zIndex": -4503599627370496}], "edges": []}"#)
    #expect(document.nodes.first?.zIndex == -4_503_599_627_370_496)
  }

  @Test func repeatedTopLevelKeysCountOnceWithTheirLastValue() throws {
    var text = #"{"nodes": 5, "#
    for index in 0..<2_000 { text += #""extra\#(index % 100)": \#(index), "# }
    text += #""nodes": [{"id": "n", "data": {"kind": "number"}}], "edges": []}"#
    let document = try FlowDocument(jsonText: text)
    #expect(document.nodes.map(\.id) == ["n"])
    #expect(document.extra.count == 100)
    #expect(document.extra["extra7"] == .number(1_907))
    #expect(document.extra.keys.prefix(3) == ["extra0", "extra1", "extra2"])
  }

  @Test func aFloodOfBadNodesKeepsTheFirstProblemsAndCountsTheRest() {
    let count = 5_000
    let text = #"{"nodes": ["# + Array(repeating: "1", count: count).joined(separator: ",") + #"], "edges": []}"#
    do {
      _ = try FlowDocument(jsonText: text)
      Issue.record("expected problems")
    } catch {
      guard case .invalid(let invalid) = error else { Issue.record("\(error)"); return }
      #expect(invalid.issues.count == GraphValidationError.reportedIssueLimit)
      #expect(invalid.unreportedCount == count - GraphValidationError.reportedIssueLimit)
      #expect(invalid.totalCount == count)
      #expect(invalid.issues.first?.message == "nodes[0] must be an object, found number")
      #expect(invalid.description.hasSuffix("… and \(count - GraphValidationError.reportedIssueLimit) more problems"))
    }
  }
}
