import FlowGraph
import FlowLayout
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing
@testable import FlowCommandLine

/// The page's picture: handles carry `data-port="<node>.<port>"` and `data-direction`, edges
/// `data-edge="<id>"`; a failure's message is drawn whole, wrapped inside its box; a text param is
/// a multi-line field as tall as its lines, inside its box, holding the text exactly.
@Suite struct ServePageSVGTests {
  /// The picture `flow serve` draws for `document`, after one evaluation.
  static func svg(_ document: FlowDocument) throws -> (svg: String, picture: GraphPicture) {
    let registry = NodeKindRegistry.standard
    let graph = try DocumentValidator.validate(document, catalog: registry)
    var evaluator = try GraphEvaluator(validating: document, registry: registry)
    evaluator.evaluate()
    var picture = GraphPicture(graph: graph, values: evaluator)
    ServeParamRow.fit(&picture, graph: graph, registry: registry)
    picture.placeLayered()
    return (ServePageSVG.svg(picture, graph: graph, registry: registry, liveSources: []), picture)
  }

  /// The value of `name` in the first tag of `text` that holds `marker`.
  static func attribute(_ name: String, in text: String, after marker: String) -> String? {
    guard let start = text.range(of: marker) else { return nil }
    let tail = text[start.lowerBound...]
    guard let open = tail.range(of: " \(name)=\"") else { return nil }
    let rest = tail[open.upperBound...]
    return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
  }

  static let calculator = FlowDocument(
    nodes: [
      .node("a", "number", params: ["value": 2]), .node("b", "number", params: ["value": 3]), .node("sum", "add")
    ], edges: [.edge("first", "a.value", "sum.a"), .edge("second", "b.value", "sum.b")])

  @Test func handlesCarryNodeDotPortAndTheirDirectionAndEdgesTheirIDs() throws {
    let (svg, _) = try Self.svg(Self.calculator)
    for handle in [
      #"data-port="a.value" data-direction="out""#, #"data-port="sum.a" data-direction="in""#,
      #"data-port="sum.b" data-direction="in""#, #"data-port="sum.result" data-direction="out""#
    ] {
      #expect(svg.contains(handle), "no handle \(handle)")
    }
    #expect(svg.contains(#"data-edge="first" data-source="a" data-target="sum""#))
    #expect(svg.contains(#"data-edge="second" data-source="b" data-target="sum""#))
    // The output's value is DOM text under its own attribute (not a handle's).
    #expect(svg.contains(#"data-value="result""#))
  }

  @Test func aLongFailureMessageIsDrawnWholeAndWrappedInsideItsBox() throws {
    let text = String(repeating: "not a number at all ", count: 6)
    let document = FlowDocument(
      nodes: [.node("parse", "toNumber", params: ["text": .string(text)]), .node("sum", "add")],
      edges: [.edge("e", "parse.value", "sum.a")])
    let (svg, picture) = try Self.svg(document)
    let box = try #require(picture.boxes.first { $0.id == "parse" })
    let message = try #require(box.failure)
    #expect(box.failureLines == GraphPicture.wrap(message))
    #expect(box.failureLines.count > 1, "the message is long enough to wrap: \(message)")
    // Each line is a tspan of the failure text, every one inside the box.
    let failure = try #require(svg.range(of: #"<text class="failure" data-text=""#).map { svg[$0.lowerBound...] })
    let element = String(failure[..<failure.range(of: "</text>")!.upperBound])
    #expect(element.components(separatedBy: "<tspan").count - 1 == box.failureLines.count)
    let firstY = try #require(Self.attribute("y", in: element, after: "<text").flatMap(Double.init))
    let lastY = firstY + Double(box.failureLines.count - 1) * GraphPicture.lineHeight
    #expect(
      firstY - 12 >= box.y + GraphPicture.headerHeight && lastY <= box.y + box.height,
      "lines \(firstY)…\(lastY) in \(box.y)…\(box.y + box.height)")
    for line in box.failureLines { #expect(line.count <= GraphPicture.wrapWidth) }
  }

  @Test func aTextParamIsAMultiLineFieldAsTallAsItsLinesHoldingTheTextExactly() throws {
    let text = "first line\n  second <line> & more\n\nfourth"
    let (svg, picture) = try Self.svg(
      FlowDocument(nodes: [.node("note", "text", params: ["value": .string(text)])], edges: []))
    let box = try #require(picture.boxes.first)
    let start = try #require(svg.range(of: "<textarea "))
    let end = try #require(svg.range(of: "</textarea>"))
    let content = svg[svg[start.upperBound...].firstIndex(of: ">")!..<end.lowerBound].dropFirst()
    // The parser drops the first line break; the rest is the text, escaped.
    #expect(content == "\n" + "first line\n  second &lt;line&gt; &amp; more\n\nfourth")
    let height = try #require(Self.attribute("height", in: svg, after: "<foreignObject").flatMap(Double.init))
    let y = try #require(Self.attribute("y", in: svg, after: "<foreignObject").flatMap(Double.init))
    #expect(height == 4 * GraphPicture.lineHeight)
    #expect(y >= box.y + GraphPicture.headerHeight && y + height <= box.y + box.height)
    let x = try #require(Self.attribute("x", in: svg, after: "<foreignObject").flatMap(Double.init))
    let width = try #require(Self.attribute("width", in: svg, after: "<foreignObject").flatMap(Double.init))
    #expect(x + width <= box.x + box.width)
  }

  /// Over seeded random texts: a text field's lines keep every character of the text but the
  /// spaces and line breaks they are cut at (a reference: the text without white space), each
  /// line fits `wrapWidth`, and there are at most `textFieldLineLimit` of them.
  @Test(arguments: 0..<200) func textFieldLinesKeepTheTextAndFitTheirWidth(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let words = [
      "a", "sum", "x", "(b + c)", "averylongwordthatdoesnotfitonelinebecauseitisfarlongerthansixtycharacters", "", " "
    ]
    var text = ""
    for _ in 0..<Int.random(in: 0..<40, using: &random) {
      text += words.randomElement(using: &random)! + (Int.random(in: 0..<8, using: &random) == 0 ? "\n" : " ")
    }
    let prefix = String(repeating: "p", count: Int.random(in: 1..<30, using: &random)) + ": "
    let lines = ServeParamRow.textLines(text, prefix: prefix)
    #expect(!lines.isEmpty && lines.count <= ServeParamRow.textFieldLineLimit)
    #expect(lines[0].hasPrefix(prefix))
    for line in lines { #expect(line.count <= max(GraphPicture.wrapWidth, prefix.count + 20)) }
    if lines.count < ServeParamRow.textFieldLineLimit {
      let kept = lines.map { $0.dropFirst(prefix.count) }.joined().filter { !$0.isWhitespace }
      #expect(kept == text.filter { !$0.isWhitespace })
    }
  }
}
