import Foundation
import FlowTestSupport
import Testing

/// What `flow render` draws, read back from its SVG: no edge passes under a node in any
/// example, wide pipelines wrap near a readable ratio, and a calculator saved by `flow calc`
/// and laid out by `flow layout` renders at its document positions without overlapping boxes.
@Suite struct RenderGeometryTests {
  /// Every `<rect class="body" …>` (a node's box) and every edge path's data in `svg`.
  static func geometry(_ svg: String) -> (boxes: [PathGeometry.Box], paths: [(String, String)], size: (Double, Double))
  {
    func attribute(_ name: String, in element: Substring) -> String? {
      guard let range = element.range(of: " \(name)=\"") else { return nil }
      let rest = element[range.upperBound...]
      return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
    var boxes: [PathGeometry.Box] = []
    var paths: [(String, String)] = []
    var size = (0.0, 0.0)
    for line in svg.split(separator: "\n") {
      if line.hasPrefix("<svg ") {
        size = (Double(attribute("width", in: line) ?? "") ?? 0, Double(attribute("height", in: line) ?? "") ?? 0)
      }
      if line.hasPrefix("<g class=\"node"), let start = line.range(of: "<rect class=\"body\"") {
        let rect = line[start.lowerBound...]
        boxes.append(
          PathGeometry.Box(
            x: Double(attribute("x", in: rect) ?? "") ?? .nan, y: Double(attribute("y", in: rect) ?? "") ?? .nan,
            width: Double(attribute("width", in: rect) ?? "") ?? .nan,
            height: Double(attribute("height", in: rect) ?? "") ?? .nan,
            name: attribute("data-id", in: line) ?? "?"))
      }
      if line.hasPrefix("<path class=\"edge\"") {
        paths.append(
          (
            "\(attribute("data-source", in: line) ?? "?") → \(attribute("data-target", in: line) ?? "?")",
            attribute("d", in: line) ?? ""
          ))
      }
    }
    return (boxes, paths, size)
  }

  static func expectNoEdgeUnderANode(_ svg: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let (boxes, paths, _) = geometry(svg)
    #expect(!boxes.isEmpty && !paths.isEmpty, "\(name): nothing drawn", sourceLocation: sourceLocation)
    for (edge, data) in paths {
      guard let points = PathGeometry.samples(ofPathData: data) else {
        Issue.record("\(name): unreadable path \(data)", sourceLocation: sourceLocation)
        continue
      }
      if let hit = PathGeometry.firstHit(points, boxes: boxes, inset: 0.5) {
        Issue.record(
          "\(name): edge \(edge) passes under \(hit.box.name) at \(hit.point)", sourceLocation: sourceLocation)
      }
    }
  }

  static let drawings =
    ["calculator.flow.json", "cylinder.flow.json", "penguins/report.flow.json", "flights/flights.flow.json"]
    .map(TestPaths.example) + [TestPaths.fixture("hostile-ids.flow.json")]

  @Test(arguments: drawings)
  func noEdgePassesUnderANode(file: String) async throws {
    let result = try await FlowProcess.run(["render", file])
    #expect(result.status == 0, "\(result)")
    Self.expectNoEdgeUnderANode(result.stdout, file)
    // Coordinates on the half-point grid: no `60.00000000000001`, no `12.3`.
    let (boxes, _, _) = Self.geometry(result.stdout)
    for box in boxes {
      for value in [box.x, box.y, box.width, box.height] {
        #expect((value * 2).rounded() == value * 2, "\(box.name): \(value)")
      }
    }
  }

  @Test func thePenguinsPipelineWrapsNearAReadableRatio() async throws {
    let result = try await FlowProcess.run(["render", TestPaths.example("penguins/report.flow.json")])
    let (width, height) = Self.geometry(result.stdout).size
    #expect(width > 0 && height > 0)
    #expect(width <= 2.6 * height, "\(width) × \(height)")
    #expect(width <= 2_000, "\(width) × \(height)")
  }

  @Test func aCalculatorLaidOutByFlowLayoutRendersWithoutOverlaps() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-geometry-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let saved = folder.appendingPathComponent("saved.flow.json").path
    let laidOut = folder.appendingPathComponent("laid-out.flow.json").path
    let session = """
      node price number value=12.5
      node quantity number value=4
      node subtotal multiply
      connect price.value subtotal.a
      connect quantity.value subtotal.b
      node rate number value=0.08
      node tax multiply
      connect subtotal.result tax.a
      connect rate.value tax.b
      node total add
      connect subtotal.result total.a
      connect tax.result total.b
      node tip expression formula="round(total * percent) / 100" percent=15
      connect total.result tip.total
      node half divide b=2
      connect total.result half.a
      save \(saved)
      """
    let calc = try await FlowProcess.run(["calc"], stdin: session + "\n")
    #expect(calc.status == 0, "\(calc)")
    let layout = try await FlowProcess.run(["layout", saved, "-o", laidOut])
    #expect(layout.status == 0, "\(layout)")
    let text = try String(contentsOfFile: laidOut, encoding: .utf8)
    let document = try #require(try parseJSON(text) as? [String: Any])
    let nodes = try #require(document["nodes"] as? [[String: Any]])
    // Positions and sizes are written on the half-point grid.
    var written: [String: [Double]] = [:]
    for node in nodes {
      let position = try #require(node["position"] as? [Double]), size = try #require(node["size"] as? [Double])
      for value in position + size { #expect((value * 2).rounded() == value * 2, "\(node["id"]!): \(value)") }
      written[node["id"] as! String] = position + size
    }
    let render = try await FlowProcess.run(["render", laidOut, "--layout", "document"])
    #expect(render.status == 0, "\(render)")
    let (boxes, _, _) = Self.geometry(render.stdout)
    #expect(boxes.count == nodes.count)
    // Render draws each box at the size layout wrote, where layout put it (after the margin).
    let dx = boxes.map(\.x).min()! - written.values.map { $0[0] }.min()!
    let dy = boxes.map(\.y).min()! - written.values.map { $0[1] }.min()!
    for box in boxes {
      let expected = try #require(written[box.name])
      #expect([box.x - dx, box.y - dy, box.width, box.height] == expected, "\(box.name)")
    }
    for (index, a) in boxes.enumerated() {
      for b in boxes[(index + 1)...] {
        let apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y
        #expect(apart, "\(a.name) overlaps \(b.name)")
      }
    }
  }

  @Test func dotAndMermaidShowInputsSetByParams() async throws {
    let document = """
      {"nodes": [{"id": "a", "position": [0, 0], "data": {"kind": "number", "params": {"value": 2}}},
                 {"id": "s", "position": [200, 0], "data": {"kind": "add", "params": {"b": 5}}}],
       "edges": [{"id": "e", "sourceNodeID": "a", "sourceHandleID": "value", "targetNodeID": "s", "targetHandleID": "a"}]}
      """
    for format in ["dot", "mermaid"] {
      let result = try await FlowProcess.run(["render", "-", "--format", format], stdin: document)
      #expect(result.status == 0, "\(result)")
      #expect(result.stdout.contains("b = 5"), "\(format): \(result.stdout)")
    }
  }
}
