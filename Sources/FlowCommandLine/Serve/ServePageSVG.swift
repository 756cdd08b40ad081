import FlowLayout
import FlowGraph
import FlowRuntime

/// The picture `flow serve` shows: a placed `GraphPicture` (the layered layout of `render`)
/// drawn as inline SVG the page script can update. Each node is `<g class="node"
/// data-node="<id>">`; each port's circle carries `data-port="<node>.<port>"` and
/// `data-direction="in|out"`; each output's value is a `<text data-value="<port>">` (DOM text);
/// each edge is a `<path class="edge" data-edge="<id>">`; each editable param or unconnected
/// input is an HTML field with `data-param="<name>"` in a `foreignObject` (a `textarea` for a
/// text param); a failure's message is drawn whole, wrapped, inside the box's foot (the box is
/// measured with it); below each node a `rejection` line waits for a refused edit, and a live
/// source has an `emissions` count. Every text and attribute is escaped.
///
/// - Complexity: O(size of the output).
enum ServePageSVG {
  /// The SVG element (no XML declaration, so it can be inlined in HTML as well as served).
  ///
  /// - Parameters:
  ///   - editable: false for a read-only picture (an instance's inside): params as text, no fields.
  ///   - subgraphKinds: the kinds that are subgraph definitions; their nodes are instances, drawn
  ///     with `data-subgraph` (the page opens them).
  static func svg(
    _ picture: GraphPicture, graph: ResolvedGraph, registry: NodeKindRegistry, liveSources: Set<String>,
    editable: Bool = true, subgraphKinds: Set<String> = []
  ) -> String {
    var out = ""
    out.reserveCapacity(700 * picture.boxes.count + 200 * picture.edges.count + 1_000)
    let width = number(picture.width), height = number(picture.height + 30)
    out +=
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"flow-graph\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\">\n"
    var connected = Set<Int64>()
    for edge in graph.edges { connected.insert(Int64(edge.target) << 32 | Int64(edge.targetPort)) }
    let framed = picture.groupsWithChildren
    for index in framed.sorted() {
      let box = picture.boxes[index]
      out +=
        "<g class=\"group\" data-group=\"\(escape(box.id))\"><rect x=\"\(number(box.x))\" y=\"\(number(box.y))\" width=\"\(number(box.width))\" height=\"\(number(box.height))\" rx=\"8\"/>"
      out += "<text x=\"\(number(box.x + 10))\" y=\"\(number(box.y + 16))\">\(escape(box.title))</text></g>\n"
    }
    for (index, edge) in picture.edges.enumerated() {
      let source = picture.boxes[Int(edge.source)], target = picture.boxes[Int(edge.target)]
      // The layout's own path, as `flow render` draws it: it passes under no node, and a wrapped
      // edge keeps its own lane.
      let points =
        index < picture.paths.count && !picture.paths[index].isEmpty
        ? picture.paths[index]
        : [
          GraphPicture.PathPoint(
            x: source.x + source.width, y: source.y + source.outputY(Int(edge.sourcePort)), curve: false),
          GraphPicture.PathPoint(x: target.x, y: target.y + target.inputY(Int(edge.targetPort)), curve: true)
        ]
      let path = SVGWriter.pathData(points)
      let documentIndex = Int(edge.documentIndex)
      let id = documentIndex < graph.document.edges.count ? graph.document.edges[documentIndex].id : ""
      out +=
        "<path class=\"edge\" data-edge=\"\(escape(id))\" data-source=\"\(escape(source.id))\" data-target=\"\(escape(target.id))\" d=\"\(path)\"/>\n"
    }
    for (index, box) in picture.boxes.enumerated() where !framed.contains(index) && !box.isGroup {
      let fields =
        editable ? ServeEditable.fields(of: index, in: graph, connected: connected, registry: registry) : ([:], [:])
      let node = graph.document.nodes[index]
      write(
        box, node: node, inputNames: graph.signatures[index].inputs.map(\.name), fields: fields,
        isLiveSource: liveSources.contains(box.id),
        subgraph: subgraphKinds.contains(node.data.kind) ? node.data.kind : nil, into: &out)
    }
    out += "</svg>\n"
    return out
  }

  /// Text and attribute values, escaped as the SVG writer escapes them (`SVGWriter.escape`).
  static func escape(_ text: String) -> String { SVGWriter.escape(text) }

  /// A port label without its value (`b = 3` → `b`).
  static func portName(_ label: String) -> String {
    label.firstRange(of: " = ").map { String(label[..<$0.lowerBound]) } ?? label
  }

  /// A coordinate with at most one decimal.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let tenths = Int((value * 10).rounded())
    let whole = tenths / 10, fraction = abs(tenths % 10)
    if fraction == 0 { return String(whole) }
    return (tenths < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
  }
}
