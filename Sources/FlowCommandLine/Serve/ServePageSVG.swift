import FlowLayout
import FlowGraph
import FlowRuntime

/// The picture `flow serve` shows: a placed `GraphPicture` (the layered layout of `render`)
/// drawn as inline SVG the page script can update. Each node is `<g class="node"
/// data-node="<id>">`; each output's value is a `<text data-port="<port>">` (DOM text); each
/// editable param or unconnected input is an HTML `<input data-param="<name>">` in a
/// `foreignObject`; below each node a `failure` and a `rejection` line wait for messages, and a
/// live source has an `emissions` count. Every text and attribute is escaped.
///
/// - Complexity: O(size of the output).
enum ServePageSVG {
  /// The SVG element (no XML declaration, so it can be inlined in HTML as well as served).
  static func svg(_ picture: GraphPicture, graph: ResolvedGraph, registry: NodeKindRegistry, liveSources: Set<String>) -> String {
    var out = ""
    out.reserveCapacity(700 * picture.boxes.count + 200 * picture.edges.count + 1_000)
    let width = number(picture.width), height = number(picture.height + 30)
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"flow-graph\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\">\n"
    var connected = Set<Int64>()
    for edge in graph.edges { connected.insert(Int64(edge.target) << 32 | Int64(edge.targetPort)) }
    let framed = picture.groupsWithChildren
    for index in framed.sorted() {
      let box = picture.boxes[index]
      out += "<g class=\"group\" data-group=\"\(escape(box.id))\"><rect x=\"\(number(box.x))\" y=\"\(number(box.y))\" width=\"\(number(box.width))\" height=\"\(number(box.height))\" rx=\"8\"/>"
      out += "<text x=\"\(number(box.x + 10))\" y=\"\(number(box.y + 16))\">\(escape(box.title))</text></g>\n"
    }
    for (index, edge) in picture.edges.enumerated() {
      let source = picture.boxes[Int(edge.source)], target = picture.boxes[Int(edge.target)]
      // The layout's own path, as `flow render` draws it: it passes under no node, and a wrapped
      // edge keeps its own lane.
      let points = index < picture.paths.count && !picture.paths[index].isEmpty ? picture.paths[index] : [
        GraphPicture.PathPoint(x: source.x + source.width, y: source.y + source.outputY(Int(edge.sourcePort)), curve: false),
        GraphPicture.PathPoint(x: target.x, y: target.y + target.inputY(Int(edge.targetPort)), curve: true),
      ]
      let path = SVGWriter.pathData(points)
      out += "<path class=\"edge\" data-source=\"\(escape(source.id))\" data-target=\"\(escape(target.id))\" d=\"\(path)\"/>\n"
    }
    for (index, box) in picture.boxes.enumerated() where !framed.contains(index) && !box.isGroup {
      let fields = ServeEditable.fields(of: index, in: graph, connected: connected, registry: registry)
      let node = graph.document.nodes[index]
      write(box, node: node, inputNames: graph.signatures[index].inputs.map(\.name), fields: fields, isLiveSource: liveSources.contains(box.id), into: &out)
    }
    out += "</svg>\n"
    return out
  }

  static func write(_ box: GraphPicture.Box, node: FlowNode, inputNames: [String], fields: (params: [String: ServeEditable.Field], inputs: [Int: ServeEditable.Field]),
                    isLiveSource: Bool, into out: inout String) {
    let x = box.x, y = box.y
    out += "<g class=\"node\" data-node=\"\(escape(box.id))\">"
    out += "<rect class=\"body\" x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(box.width))\" height=\"\(number(box.height))\" rx=\"6\"/>"
    out += "<text class=\"title\" x=\"\(number(x + 10))\" y=\"\(number(y + 18))\">\(escape(box.title))</text>"
    out += "<text class=\"kind\" x=\"\(number(x + 10))\" y=\"\(number(y + 33))\">\(escape(box.kind))</text>"
    if isLiveSource {
      out += "<text class=\"emissions\" x=\"\(number(x + box.width - 8))\" y=\"\(number(y + 18))\" text-anchor=\"end\">0 emitted</text>"
    }
    // The shown params, in the order of `GraphPicture` (the spec's params that are not ports).
    let portNames = Set(inputNames)
    var lineY = y + GraphPicture.headerHeight
    for member in node.data.params.members where !portNames.contains(member.key) {
      if let field = fields.params[member.key] {
        let label = member.key + ":"
        out += "<text class=\"param\" x=\"\(number(x + 10))\" y=\"\(number(lineY + 12))\">\(escape(label))</text>"
        let left = x + 14 + Double(label.count) * GraphPicture.charWidth
        input(field, value: member.value, x: left, y: lineY, width: x + box.width - 8 - left, into: &out)
      } else {
        out += "<text class=\"param\" x=\"\(number(x + 10))\" y=\"\(number(lineY + 12))\">\(escape(GraphPicture.clip("\(member.key): \(member.value.serialized(options: []))")))</text>"
      }
      lineY += GraphPicture.lineHeight
    }
    for (port, label) in box.inputs.enumerated() {
      let portY = y + box.portY(port)
      let inputName = port < inputNames.count ? inputNames[port] : portName(label)
      out += "<circle class=\"port\" data-in=\"\(escape(inputName))\" cx=\"\(number(x))\" cy=\"\(number(portY))\" r=\"5\"/>"
      if let field = fields.inputs[port] {
        let name = port < inputNames.count ? inputNames[port] : portName(label)
        out += "<text x=\"\(number(x + 10))\" y=\"\(number(portY + 4))\">\(escape(name))</text>"
        let left = x + 14 + Double(name.count) * GraphPicture.charWidth
        let outputChars = port < box.outputs.count ? box.outputs[port].count : 0
        let room = x + box.width - 12 - Double(outputChars) * GraphPicture.charWidth - left
        input(field, value: node.data.params[name], x: left, y: portY - 8, width: min(90, max(44, room)), into: &out)
      } else {
        out += "<text x=\"\(number(x + 10))\" y=\"\(number(portY + 4))\">\(escape(label))</text>"
      }
    }
    for (port, label) in box.outputs.enumerated() {
      let portY = y + box.portY(port)
      out += "<circle class=\"port\" data-out=\"\(escape(portName(label)))\" cx=\"\(number(x + box.width))\" cy=\"\(number(portY))\" r=\"5\"/>"
      out += "<text class=\"value\" data-port=\"\(escape(portName(label)))\" x=\"\(number(x + box.width - 10))\" y=\"\(number(portY + 4))\" text-anchor=\"end\">\(escape(label))</text>"
    }
    // A table's columns and first rows under the ports, as `flow render --values` draws them
    // (the picture is drawn again when they change: `ServeSession.shape(of:in:)`).
    var tableY = y + GraphPicture.headerHeight + Double(box.params.count) * GraphPicture.lineHeight
      + Double(max(box.inputs.count, box.outputs.count)) * GraphPicture.rowHeight
    for line in box.tableLines {
      out += "<text class=\"table\" x=\"\(number(x + 10))\" y=\"\(number(tableY + 12))\" xml:space=\"preserve\">\(escape(line))</text>"
      tableY += GraphPicture.lineHeight
    }
    out += "<text class=\"failure\" x=\"\(number(x + 2))\" y=\"\(number(y + box.height + 14))\">\(escape(box.failure ?? ""))</text>"
    out += "<text class=\"rejection\" x=\"\(number(x + 2))\" y=\"\(number(y + box.height + 28))\"></text>"
    out += "</g>\n"
  }

  /// An HTML input in a `foreignObject`: a checkbox for a bool, a text field otherwise.
  static func input(_ field: ServeEditable.Field, value: JSONValue?, x: Double, y: Double, width: Double, into out: inout String) {
    let type = field.type.rawValue
    out += "<foreignObject x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(max(20, width)))\" height=\"16\">"
    let common = "xmlns=\"http://www.w3.org/1999/xhtml\" data-param=\"\(escape(field.name))\" data-type=\"\(type)\" data-input=\"\(field.isInput)\""
    if field.type == .bool {
      let checked = value == .bool(true) ? " checked=\"checked\"" : ""
      out += "<input \(common) type=\"checkbox\"\(checked)/>"
    } else {
      let text = value.map(ServeEditable.text) ?? ""
      out += "<input \(common) type=\"text\" spellcheck=\"false\" value=\"\(escape(text))\"/>"
    }
    out += "</foreignObject>"
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
