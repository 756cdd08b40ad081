import FlowNodes
import FlowRuntime
import FlowSQL
import Foundation
import Testing

/// The fixtures and golden files of `FlowSQLTests`, found from this file's own path (read by
/// path, never bundled), and the exporter set up as `flow export` sets it up.
enum SQLTestSupport {
  /// `Tests/FlowSQLTests`.
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

  static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }

  /// The fixture folder `name` (e.g. `penguins`).
  static func fixture(_ name: String) -> String { folder.appendingPathComponent("Fixtures/\(name)").path }

  /// The document at `path`.
  static func document(_ path: String) throws -> FlowDocument {
    try FlowDocument(jsonBytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
  }

  /// The standard kinds (plus `extra`) reading in `documentFolder`, as `flow export` configures them.
  static func exporter(_ dialect: SQLDialect, documentFolder: String, extra: [any NodeKind] = []) -> SQLExporter {
    var registry = NodeKindRegistry.standard
    for kind in extra { registry.register(kind) }
    registry.environment = EvaluationEnvironment(
      documentFolder: documentFolder,
      fileAccess: FileAccessPolicy(readableRoots: [documentFolder], writableRoots: [documentFolder]))
    return SQLExporter(registry: registry, dialect: dialect)
  }

  /// Exports a document given as JSON text, its files in `folder` (default: a fresh temporary one).
  static func export(
    _ json: String, _ dialect: SQLDialect = .duckdb, nodes: [String] = [], files: [String: String] = [:],
    extra: [any NodeKind] = []
  ) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-sql-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
    let document = try FlowDocument(jsonBytes: Array(json.utf8))
    return try exporter(dialect, documentFolder: folder, extra: extra).script(for: document, nodes: nodes)
  }

  /// Expects `actual` to equal the golden file `name` (re-recorded with `RECORD_SNAPSHOTS=1`).
  static func expect(_ actual: String, matchesGolden name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let url = folder.appendingPathComponent("Golden").appendingPathComponent(name)
    if isRecording {
      do { try Data(actual.utf8).write(to: url) } catch {
        Issue.record("cannot record \(name): \(error)", sourceLocation: sourceLocation)
      }
      return
    }
    guard let data = FileManager.default.contents(atPath: url.path) else {
      Issue.record(
        "golden file \(name) is missing; run with RECORD_SNAPSHOTS=1 to record it", sourceLocation: sourceLocation)
      return
    }
    let expected = String(decoding: data, as: UTF8.self)
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let common = min(actualLines.count, expectedLines.count)
    let differing = (0..<common).first { actualLines[$0] != expectedLines[$0] }
    if let line = differing ?? (actualLines.count == expectedLines.count ? nil : common) {
      Issue.record(
        """
        \(name) differs at line \(line + 1) (re-record with RECORD_SNAPSHOTS=1)
        expected: \(line < expectedLines.count ? String(expectedLines[line]) : "<end>")
        actual:   \(line < actualLines.count ? String(actualLines[line]) : "<end>")
        """, sourceLocation: sourceLocation)
    }
  }

  /// A document of `nodes` (JSON objects without positions) and `edges` (source, target, port).
  static func graph(_ nodes: [(id: String, kind: String, params: String)], _ edges: [(String, String, String)])
    -> String
  {
    let nodeText = nodes.map {
      #"{"id": \#(quoted($0.id)), "data": {"kind": "\#($0.kind)", "params": \#($0.params)}, "position": [0, 0]}"#
    }
    let edgeText = edges.enumerated().map { index, edge in
      #"{"id": "e\#(index)", "sourceNodeID": \#(quoted(edge.0)), "targetNodeID": \#(quoted(edge.1)), "targetHandleID": "\#(edge.2)"}"#
    }
    return #"{"nodes": [\#(nodeText.joined(separator: ", "))], "edges": [\#(edgeText.joined(separator: ", "))]}"#
  }

  static func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }
}
