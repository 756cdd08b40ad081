import Foundation
import Testing

/// Where the package, the examples, the fixtures and the golden files are, found from this
/// file's own path (they are read by path, never bundled as resources).
enum TestPaths {
  /// `Tests/CLITests`.
  static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  static let packageRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()

  /// A fixture's path relative to the package root (the directory `flow` runs in).
  static func fixture(_ name: String) -> String { "Tests/CLITests/Fixtures/\(name)" }

  /// An example's path relative to the package root.
  static func example(_ name: String) -> String { "Examples/\(name)" }

  /// The saved graphs in `Examples/`, sorted by name.
  static var exampleNames: [String] {
    let folder = packageRoot.appendingPathComponent("Examples")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".flow.json") }.sorted()
  }
}

/// A text file under `Tests/CLITests/Golden/` that a command's output must equal exactly.
///
/// With `RECORD_SNAPSHOTS=1` in the environment the test writes the file instead of comparing.
enum GoldenFile {
  static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }

  static func url(_ name: String) -> URL {
    TestPaths.testsFolder.appendingPathComponent("Golden").appendingPathComponent(name)
  }

  /// Expects `actual` to equal the golden file `name`, or records it.
  static func expect(_ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let url = url(name)
    if isRecording {
      do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(actual.utf8).write(to: url)
      } catch {
        Issue.record("cannot record golden file \(name): \(error)", sourceLocation: sourceLocation)
      }
      return
    }
    guard let data = FileManager.default.contents(atPath: url.path) else {
      Issue.record(
        "golden file \(name) is missing; run with RECORD_SNAPSHOTS=1 to record it",
        sourceLocation: sourceLocation)
      return
    }
    let expected = String(decoding: data, as: UTF8.self)
    if actual != expected {
      Issue.record(
        """
        output differs from golden file \(name) (re-record with RECORD_SNAPSHOTS=1) \
        at \(firstDifference(actual, expected))
        --- expected ---
        \(expected)
        --- actual ---
        \(actual)
        """, sourceLocation: sourceLocation)
    }
  }

  /// "line N: expected … / actual …" for the first line where the texts differ.
  static func firstDifference(_ actual: String, _ expected: String) -> String {
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(actualLines.count, expectedLines.count) {
      let a = index < actualLines.count ? String(actualLines[index]) : "<end>"
      let e = index < expectedLines.count ? String(expectedLines[index]) : "<end>"
      if a != e { return "line \(index + 1): expected \(e.debugDescription), actual \(a.debugDescription)" }
    }
    return "<no difference>"
  }
}

/// Parses `text` as JSON (`flow run --format json`, `flow nodes --format json`).
func parseJSON(_ text: String) throws -> Any {
  try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}
