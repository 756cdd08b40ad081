import FlowGraph
import FlowLayout
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing
@testable import FlowCommandLine

/// Every param is also an input, as the page and `flow render` draw it: a param an edge may feed
/// and none does has a target handle (`data-param-handle`) at its row, inside its box; a fed
/// param is drawn as an input marked `(from edge)`, without its field and without a handle; a
/// param named like a port (`number`'s `value`) has none.
@Suite struct ServeParamHandleTests {
  static let unfed = FlowDocument(
    nodes: [
      .node("two", "number", params: ["value": 2]), .node("greeting", "format", params: ["template": "hi {a}"]),
      .node("sum", "add", params: ["b": 1])
    ], edges: [.edge("e1", "two.value", "greeting.a"), .edge("e2", "two.value", "sum.a")])

  @Test func anUnfedParamHasATargetHandleAtItsRowInsideItsBox() throws {
    let (svg, picture) = try ServePageSVGTests.svg(Self.unfed)
    #expect(
      svg.contains(
        #"data-port="greeting.template" data-direction="in" data-in="template" data-param-handle="template""#))
    // `value` of a number is its output, `b` of add an input: neither gets a param handle.
    #expect(!svg.contains(#"data-param-handle="value""#))
    #expect(!svg.contains(#"data-param-handle="b""#))
    let box = try #require(picture.boxes.first { $0.id == "greeting" })
    let handle = try #require(box.paramHandles.first)
    #expect(handle == GraphPicture.ParamHandle(name: "template", line: 0))
    // The handle's centre is on the box's left edge, within the param's line, above the ports.
    let y = box.paramLineY(handle.line)
    #expect(y > GraphPicture.headerHeight && y < box.portY(0) - GraphPicture.rowHeight / 2)
    #expect(svg.contains(#"cy="\#(ServePageSVG.number(box.y + y))" r="4"><title>template"#))
  }

  @Test func aFedParamIsAnInputMarkedFromEdgeWithoutItsFieldOrHandle() throws {
    var document = Self.unfed
    document.edges.append(.edge("e3", "two.value", "sum.b"))
    document.nodes.append(.node("label", "text", params: ["value": "n = {a}"]))
    document.edges.append(.edge("e4", "label.value", "greeting.template"))
    let (svg, picture) = try ServePageSVGTests.svg(document)
    #expect(!svg.contains(#"data-param-handle="template""#))
    #expect(svg.contains(#"data-port="greeting.template" data-direction="in""#))
    #expect(svg.contains(#">template (from edge)</text>"#))
    #expect(!svg.contains(#"data-param="template""#), "the fed param has no field")
    let box = try #require(picture.boxes.first { $0.id == "greeting" })
    #expect(box.paramHandles.isEmpty)
    #expect(box.width >= Double("template (from edge)".count) * GraphPicture.charWidth)
  }

  @Test func renderDrawsTheSameHandlesFromTheSameBoxes() throws {
    let registry = NodeKindRegistry.standard
    let graph = try DocumentValidator.validate(Self.unfed, catalog: registry)
    var picture = GraphPicture(graph: graph, values: nil)
    picture.placeLayered()
    let box = try #require(picture.boxes.first { $0.id == "greeting" })
    #expect(box.paramHandles == [GraphPicture.ParamHandle(name: "template", line: 0)])
    let svg = SVGWriter.svg(picture)
    #expect(svg.components(separatedBy: "<circle class=\"param-port\"").count - 1 == 1)
    #expect(
      svg.contains(
        #"<circle class="param-port" cx="\#(SVGWriter.number(box.x))" cy="\#(SVGWriter.number(box.y + box.paramLineY(0)))" r="3"/>"#
      ))
  }
}
