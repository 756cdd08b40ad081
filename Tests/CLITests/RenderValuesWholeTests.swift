import Foundation
import Testing

/// `flow render --values` draws what `flow run` would say, whole: a table's columns and first
/// rows, params in the document's key order and never cut off, a failure's message with its
/// hint — and a failed run says so on stderr with exit status 1, as `run` does.
@Suite struct RenderValuesWholeTests {
  /// A folder with `d.csv` (7 rows) and a document reading `path` into a `derive`.
  static func document(path: String, longFormula: Bool = false) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-render-whole-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try "k,name\n1,a\n2,b\n3,c\n4,d\n5,e\n6,f\n7,g\n".write(
      to: folder.appendingPathComponent("d.csv"), atomically: true, encoding: .utf8)
    let formula = longFormula ? String(repeating: "k + ", count: 30) + "1" : "2"
    let text = """
      {"nodes": [
        {"id": "read", "data": {"kind": "readCSV", "params": {"path": "\(path)"}}},
        {"id": "d", "data": {"kind": "derive", "params": {"columns": {"zz": "1", "aa": "\(formula)"}}}}
      ], "edges": [{"id": "e", "sourceNodeID": "read", "targetNodeID": "d"}]}
      """
    let file = folder.appendingPathComponent("r.flow.json")
    try text.write(to: file, atomically: true, encoding: .utf8)
    return file
  }

  /// The texts of an SVG's `<text>` elements, entities decoded.
  static func texts(_ svg: String) -> [String] {
    svg.matches(of: /<text[^>]*>([^<]*)<\/text>/).map {
      String($0.1).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }
  }

  @Test func aTableShowsItsColumnsAndFirstRows() async throws {
    let file = try Self.document(path: "d.csv")
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let result = try await FlowProcess.run(["render", file.path, "--values"])
    #expect(result.status == 0, "\(result)")
    let texts = Self.texts(result.stdout)
    #expect(texts.contains("table = table (7 rows × 2 columns)"))
    #expect(texts.contains("k  name") && texts.contains("1  a") && texts.contains("… 2 more rows"), "\(texts)")
    #expect(texts.contains("k  name  zz  aa"), "derived columns in their order: \(texts)")
  }

  @Test func paramsShowInTheDocumentsOrderAndWhole() async throws {
    let file = try Self.document(path: "d.csv", longFormula: true)
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let result = try await FlowProcess.run(["render", file.path, "--values"])
    let texts = Self.texts(result.stdout)
    let param = try #require(texts.firstIndex { $0.hasPrefix("columns: ") }, "\(texts)")
    // The wrapped lines of the param, joined, are the whole param.
    var joined = texts[param]
    var next = param + 1
    while next < texts.count, texts[next].hasPrefix("  ") { joined += texts[next].dropFirst(2); next += 1 }
    #expect(next > param + 1, "a long param wraps: \(texts)")
    #expect(
      joined.replacingOccurrences(of: " ", with: "")
        == (#"columns: {"zz":"1","aa":""# + String(repeating: "k + ", count: 30) + #"1"}"#).replacingOccurrences(
          of: " ", with: ""),
      "\(joined)")
  }

  @Test func aFailedReadIsDrawnWholeAndReportedOnStderr() async throws {
    let file = try Self.document(path: "/etc/hostname")
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let result = try await FlowProcess.run(["render", file.path, "--values"])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr.contains(
        "read ! path outside the allowed folders: /etc/hostname (--allow-read DIR allows a folder)"),
      "\(result.stderr)")
    let run = try await FlowProcess.run(["run", file.path])
    #expect(run.status == 1)
    for line in run.stdout.split(separator: "\n") {
      #expect(result.stderr.contains(line), "render says what run says: \(line)")
    }
    let drawn = Self.texts(result.stdout).drop { !$0.hasPrefix("! path outside") }.prefix(2).joined(separator: " ")
    #expect(drawn.replacingOccurrences(of: "  ", with: " ").contains("(--allow-read DIR allows a folder)"), "\(drawn)")
  }
}
