import Foundation
import Testing

/// A document cannot send terminal escapes through `flow`'s output: control characters (C0, DEL,
/// C1) and bidi overrides in ids, kinds, labels and values come out as visible escapes
/// (`\u001B`, `\n` …) in text output, diagnostics, JSON and renderings.
@Suite struct ControlCharacterOutputTests {
  /// ESC sequences (CSI, OSC ending in BEL), CR, a C1 CSI, DEL, a line break and bidi overrides,
  /// as JSON escapes (the document itself is plain ASCII).
  static let id = #"evil\u001b[31m\u0007\r\u009b2J\u202e"#
  static let label = #"lab\u001b]0;title\u0007\u0085\u2066\u2029"#
  static let value = #"line1\nline2\u001b[2J\r\u007f\u009d\u202e"#

  static let document = """
    {
      "nodes": [
        { "id": "\(id)", "data": { "kind": "text", "params": { "value": "\(value)" }, "label": "\(label)" } },
        { "id": "div\(id)", "data": { "kind": "divide", "params": { "a": 1, "b": 0 }, "label": "\(label)" } }
      ],
      "edges": []
    }
    """

  /// A document whose problems quote hostile ids and an unknown kind name.
  static let invalid = """
    {
      "nodes": [
        { "id": "\(id)", "data": { "kind": "text" } },
        { "id": "\(id)", "data": { "kind": "nosuch\\u001b[2J\\u009b\\u202e" } }
      ],
      "edges": [ { "id": "e\(id)", "sourceNodeID": "\(id)", "targetNodeID": "missing\\u0007" } ]
    }
    """

  /// The raw control bytes in `text`: C0 except the line feeds between lines, DEL, the UTF-8 of
  /// U+0080–U+009F, and of U+2028–U+202E and U+2066–U+2069.
  static func rawControls(_ text: String) -> [String] {
    let bytes = Array(text.utf8)
    var found: [String] = []
    for (index, byte) in bytes.enumerated() {
      let next = index + 1 < bytes.count ? bytes[index + 1] : 0
      let third = index + 2 < bytes.count ? bytes[index + 2] : 0
      if (byte < 0x20 && byte != 0x0A) || byte == 0x7F { found.append("byte \(byte) at \(index)") }
      if byte == 0xC2 && (0x80...0x9F).contains(next) { found.append("C1 \(next) at \(index)") }
      if byte == 0xE2
        && ((next == 0x80 && (0xA8...0xAE).contains(third)) || (next == 0x81 && (0xA6...0xA9).contains(third)))
      {
        found.append("U+20xx at \(index)")
      }
    }
    return found
  }

  static func expectClean(_ result: FlowResult, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
      rawControls(result.stdout) == [], "stdout: \(result.stdout.debugDescription)", sourceLocation: sourceLocation)
    #expect(
      rawControls(result.stderr) == [], "stderr: \(result.stderr.debugDescription)", sourceLocation: sourceLocation)
    #expect(result.endedCleanly, "\(result)", sourceLocation: sourceLocation)
  }

  static let escapedID = #"evil\u001B[31m\u0007\r\u009B2J\u202E"#

  @Test func runTextEscapesIdsValuesAndMessages() async throws {
    let result = try await FlowProcess.run(["run", "-", "--all", "--report"], stdin: Self.document)
    Self.expectClean(result)
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains(#"\#(Self.escapedID).value = line1\nline2\u001B[2J\r\u007F\u009D\u202E"#), "\(result)")
    #expect(lines.contains { $0.hasPrefix("div\(Self.escapedID) ! ") }, "\(result)")
    #expect(lines.contains { $0.hasPrefix("  ran (") && $0.contains(Self.escapedID) }, "\(result)")
  }

  @Test func runJSONEscapesEveryControlAndKeepsTheValues() async throws {
    let result = try await FlowProcess.run(["run", "-", "--all", "--format", "json", "--report"], stdin: Self.document)
    Self.expectClean(result)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let outputs = try #require(object["outputs"] as? [String: [String: Any]])
    let id = "evil\u{1B}[31m\u{07}\r\u{9B}2J\u{202E}"
    #expect(outputs[id]?["value"] as? String == "line1\nline2\u{1B}[2J\r\u{7F}\u{9D}\u{202E}")
    #expect((object["errors"] as? [String: String])?["div" + id] != nil)
  }

  @Test(arguments: ["validate", "run"])
  func diagnosticsEscapeQuotedIdsAndKinds(_ command: String) async throws {
    let result = try await FlowProcess.run([command, "-"], stdin: Self.invalid)
    Self.expectClean(result)
    #expect(result.status == 2)
    #expect(result.stderr.contains(#"nosuch\u001B[2J\u009B\u202E"#), "\(result)")
    #expect(result.stderr.contains(Self.escapedID), "\(result)")
  }

  @Test func nodesEscapesWhatItQuotesFromTheCommandLine() async throws {
    let listing = try await FlowProcess.run(["nodes"])
    Self.expectClean(listing)
    let result = try await FlowProcess.run(["nodes", "--format", "\u{1B}[2J\u{9B}"])
    Self.expectClean(result)
    #expect(result.status == 64)
    #expect(result.stderr.contains(#"\u001B[2J\u009B"#), "\(result)")
  }

  @Test func calcEscapesIdsValuesAndErrors() async throws {
    let session = [
      "node e\u{1B}7\u{9B}\u{202E}x text value=\"\\u001b]0;t\\u0007 \\u009d\\n\"",
      "node k\u{1B}x nosuch\u{07}kind",
      "show",
      "show e\u{1B}7\u{9B}\u{202E}x"
    ]
    let result = try await FlowProcess.run(["calc"], stdin: session.joined(separator: "\n") + "\n")
    Self.expectClean(result)
    #expect(result.stdout.contains(#"e\u001B7\u009B\u202Ex.value = \u001B]0;t\u0007 \u009D\n"#), "\(result)")
    #expect(result.stderr.contains(#"nosuch\u0007kind"#), "\(result)")
  }

  @Test(arguments: ["dot", "mermaid", "svg"])
  func renderingsEscapeLabels(_ format: String) async throws {
    let result = try await FlowProcess.run(["render", "-", "--format", format, "--values"], stdin: Self.document)
    Self.expectClean(result)
    #expect(result.stdout.contains("u009B"), "\(result)")
  }
}
