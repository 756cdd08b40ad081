import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `flow render` through the built binary: SVG well-formed with one element per node and edge,
/// escaping, DOT and Mermaid, `--values`, `--layout document`, `-o`, exit statuses.
@Suite struct RenderCommandTests {
  static let calculator = TestPaths.example("calculator.flow.json")
  static let cylinder = TestPaths.example("cylinder.flow.json")
  static let hostile = TestPaths.fixture("hostile-ids.flow.json")

  /// Elements of an SVG by tag and class, with their `data-id`/`data-source`/`data-target`.
  final class SVGElements: NSObject, XMLParserDelegate {
    var nodes: [String] = []
    var failedNodes: [String] = []
    var groups: [String] = []
    var edges: [(source: String, target: String)] = []
    var texts: [String] = []
    var scripts = 0
    private var inText = false

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      let classes = (attributes["class"] ?? "").split(separator: " ")
      if name == "script" { scripts += 1 }
      if name == "g" && classes.contains("node") {
        nodes.append(attributes["data-id"] ?? "")
        if classes.contains("failed") { failedNodes.append(attributes["data-id"] ?? "") }
      }
      if name == "g" && classes.contains("group") { groups.append(attributes["data-id"] ?? "") }
      if name == "path" && classes.contains("edge") {
        edges.append((attributes["data-source"] ?? "", attributes["data-target"] ?? ""))
      }
      if name == "text" { inText = true; texts.append("") }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if inText { texts[texts.count - 1] += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      if name == "text" { inText = false }
    }
  }

  static func parse(_ svg: String, sourceLocation: SourceLocation = #_sourceLocation) -> SVGElements {
    let elements = SVGElements()
    let parser = XMLParser(data: Data(svg.utf8))
    parser.delegate = elements
    let ok = parser.parse()
    #expect(ok, "not well-formed XML: \(String(describing: parser.parserError))", sourceLocation: sourceLocation)
    return elements
  }

  @Test(arguments: [calculator, cylinder])
  func svgIsWellFormedWithOneElementPerNodeAndEdge(file: String) async throws {
    let result = try await FlowProcess.run(["render", file])
    #expect(result.status == 0, "\(result)")
    let svg = Self.parse(result.stdout)
    let document = try #require(
      try parseJSON(
        try String(
          contentsOfFile: TestPaths.packageRoot.appendingPathComponent(file).path,
          encoding: .utf8)) as? [String: Any])
    let nodes = try #require(document["nodes"] as? [[String: Any]])
    let edges = try #require(document["edges"] as? [[String: Any]])
    let groupIDs = Set(
      nodes.filter { ($0["data"] as? [String: Any])?["kind"] as? String == "group" }.map { $0["id"] as! String })
    #expect(Set(svg.nodes) == Set(nodes.map { $0["id"] as! String }).subtracting(groupIDs))
    #expect(svg.nodes.count + svg.groups.count == nodes.count)
    #expect(Set(svg.groups) == groupIDs)
    #expect(svg.edges.count == edges.count)
    for edge in edges {
      #expect(
        svg.edges.contains {
          $0.source == edge["sourceNodeID"] as! String && $0.target == edge["targetNodeID"] as! String
        })
    }
    #expect(result.stdout.contains("viewBox=\"0 0 "))
  }

  @Test func hostileIDsAndLabelsAreEscapedNotMarkup() async throws {
    for layout in ["layered", "document"] {
      let result = try await FlowProcess.run(["render", Self.hostile, "--values", "--layout", layout])
      #expect(result.status == 1, "divide by zero fails: \(result)")
      let svg = Self.parse(result.stdout)
      #expect(svg.scripts == 0)
      #expect(!result.stdout.contains("<script"))
      #expect(svg.nodes.contains("<script>alert(1)</script>"))
      #expect(svg.nodes.contains("q\"uote'"))
      #expect(svg.groups == ["g<roup>"])
      #expect(svg.texts.contains("\"quoted\" & 'single' <b>"))
      #expect(svg.texts.contains("</text><script>x</script>"))
      #expect(svg.failedNodes == ["zero&div"])
      #expect(svg.texts.contains("! division by zero"))
    }
  }

  @Test func valuesShowOutputsAndFailuresInRed() async throws {
    let result = try await FlowProcess.run(["render", TestPaths.fixture("division-by-zero.flow.json"), "--values"])
    #expect(result.status == 1, "\(result)")
    let svg = Self.parse(result.stdout)
    #expect(!svg.failedNodes.isEmpty)
    #expect(result.stdout.contains("class=\"node failed\""))
    let plain = try await FlowProcess.run(["render", Self.calculator])
    #expect(plain.status == 0)
    #expect(!Self.parse(plain.stdout).texts.contains { $0.contains(" = 20") })
    let valued = try await FlowProcess.run(["render", Self.calculator, "--values"])
    #expect(valued.status == 0)
    #expect(Self.parse(valued.stdout).texts.contains("result = 20"))
  }

  @Test func documentLayoutUsesTheDocumentPositions() async throws {
    let layered = try await FlowProcess.run(["render", Self.calculator])
    let document = try await FlowProcess.run(["render", Self.calculator, "--layout", "document"])
    #expect(document.status == 0)
    #expect(layered.stdout != document.stdout)
    // In the document, `price` is at [0, 0] and `quantity` at [0, 100]: after the 20-point margin
    // their boxes start 100 apart at the same x.
    #expect(document.stdout.contains("data-id=\"price\"><rect class=\"body\" x=\"20\" y=\"20\""))
    #expect(document.stdout.contains("data-id=\"quantity\"><rect class=\"body\" x=\"20\" y=\"120\""))
  }

  @Test func renderingIsDeterministic() async throws {
    let first = try await FlowProcess.run(["render", Self.cylinder, "--values"])
    let second = try await FlowProcess.run(["render", Self.cylinder, "--values"])
    #expect(first.stdout == second.stdout)
  }

  @Test(arguments: [
    (["--format", "dot"], "render-calculator.dot"),
    (["--format", "mermaid"], "render-calculator.mmd"),
    (["--format", "dot", "--values"], "render-calculator-values.dot"),
    (["--format", "svg", "--values"], "render-calculator-values.svg")
  ])
  func calculatorMatchesGolden(options: [String], golden: String) async throws {
    let result = try await FlowProcess.run(["render", Self.calculator] + options)
    #expect(result.status == 0, "\(result)")
    GoldenFile.expect(result.stdout, matches: golden)
  }

  @Test func dotAndMermaidEscapeHostileIDs() async throws {
    let dot = try await FlowProcess.run(["render", Self.hostile, "--format", "dot"])
    #expect(dot.status == 0)
    #expect(dot.stdout.contains(#""q\"uote'""#))
    #expect(dot.stdout.contains(#"\"quoted\" & 'single' <b>"#))
    let mermaid = try await FlowProcess.run(["render", Self.hostile, "--format", "mermaid"])
    #expect(mermaid.status == 0)
    #expect(!mermaid.stdout.contains("<script"))
    #expect(mermaid.stdout.contains("#lt;script#gt;"))
    for line in mermaid.stdout.split(separator: "\n") where line.contains("[\"") {
      // Inside a label, the only double quotes are the two that delimit it.
      #expect(line.filter { $0 == "\"" }.count == 2, "\(line)")
    }
  }

  @Test func outputOptionWritesTheFile() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString).svg")
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try await FlowProcess.run(["render", Self.calculator, "-o", file.path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.isEmpty)
    let written = try String(contentsOf: file, encoding: .utf8)
    let direct = try await FlowProcess.run(["render", Self.calculator])
    #expect(written == direct.stdout)
  }

  @Test func documentFromStandardInput() async throws {
    let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(Self.calculator), encoding: .utf8)
    let result = try await FlowProcess.run(["render", "-", "--format", "mermaid"], stdin: text)
    #expect(result.status == 0, "\(result)")
    GoldenFile.expect(result.stdout, matches: "render-calculator.mmd")
  }

  @Test(arguments: [
    (["render"], Int32(64)),
    (["render", "Examples/calculator.flow.json", "--format", "png"], Int32(64)),
    (["render", "Examples/calculator.flow.json", "--layout", "circular"], Int32(64)),
    (["render", "Examples/calculator.flow.json", "--vaules"], Int32(64)),
    (["render", "no-such-file.flow.json"], Int32(2)),
    (["render", "Tests/CLITests/Fixtures/cycle.flow.json"], Int32(2)),
    (["render", "Examples/calculator.flow.json", "-o", "/no/such/folder/x.svg"], Int32(64))
  ])
  func exitStatuses(arguments: [String], status: Int32) async throws {
    let result = try await FlowProcess.run(arguments)
    #expect(result.status == status, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.endedCleanly)
  }
}
