/// A self-contained SVG of a placed `GraphPicture`: its own styles and fonts, a `viewBox` so it
/// scales, one `<g class="group">` per framed group, one `<path class="edge">` per edge (cubic
/// Béziers from the output port on a node's right side to the input port on the left, through
/// the layout's dummy points) and one `<g class="node">` per node. Every text and attribute
/// value is escaped.
///
/// - Complexity: O(size of the output).
package enum SVGWriter {
  package static func svg(_ picture: GraphPicture) -> String {
    var out = ""
    out.reserveCapacity(400 * picture.boxes.count + 200 * picture.edges.count + 1_000)
    let width = number(picture.width), height = number(picture.height)
    out += """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(width) \(height)" width="\(width)" height="\(height)">
      <style>
      text { font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12px; fill: #1d2330; }
      .node rect.body { fill: #ffffff; stroke: #5b6475; stroke-width: 1.2; }
      .node.failed rect.body { fill: #fff1f0; stroke: #c62828; stroke-width: 2; }
      .node .title { font-weight: bold; font-size: 13px; }
      .node .kind { fill: #6b7385; font-size: 11px; }
      .node .param { fill: #4a5263; font-size: 11px; }
      .node .failure { fill: #c62828; }
      .port { fill: #ffffff; stroke: #5b6475; stroke-width: 1.2; }
      .edge { fill: none; stroke: #7a869a; stroke-width: 1.5; }
      .group rect { fill: #eef2f8; stroke: #9aa8c0; stroke-dasharray: 5 3; }
      .group text { fill: #4a5a78; font-weight: bold; }\(picture.insides.isEmpty ? "" : """

        .node.port-marker rect.body { fill: #f4f6fa; stroke-dasharray: 4 2; }
        .frame { stroke: #9aa8c0; stroke-dasharray: 5 3; }
        """)\(picture.boxes.contains(where: \.isNotNeeded) ? "\n.node.not-needed { opacity: 0.4; }" : "")\(picture.boxes.contains { !$0.tableLines.isEmpty } ? "\n.node .table { fill: #4a5263; white-space: pre; }" : "")\(picture.boxes.contains { !$0.paramHandles.isEmpty } ? "\n.param-port { fill: #eef2f8; stroke: #8a93a3; stroke-width: 1; }" : "")
      </style>
      <rect width="100%" height="100%" fill="#fafbfc"/>

      """
    body(picture, into: &out)
    out += "</svg>\n"
    return out
  }

  /// The groups, edges and nodes of `picture`; an expanded instance's inside in a
  /// `<g class="subgraph">` translated to its place in the instance's box.
  static func body(_ picture: GraphPicture, into out: inout String) {
    let framed = picture.groupsWithChildren
    for index in framed.sorted() {
      let box = picture.boxes[index]
      out += "<g class=\"group\" data-id=\"\(escape(box.id))\">"
      out +=
        "<rect x=\"\(number(box.x))\" y=\"\(number(box.y))\" width=\"\(number(box.width))\" height=\"\(number(box.height))\" rx=\"8\"/>"
      out += "<text x=\"\(number(box.x + 10))\" y=\"\(number(box.y + 16))\">\(escape(box.title))</text></g>\n"
    }
    for (index, edge) in picture.edges.enumerated() {
      let source = picture.boxes[Int(edge.source)], target = picture.boxes[Int(edge.target)]
      let path =
        index < picture.paths.count && !picture.paths[index].isEmpty
        ? picture.paths[index]
        : [
          GraphPicture.PathPoint(
            x: source.x + source.width, y: source.y + source.outputY(Int(edge.sourcePort)), curve: false),
          GraphPicture.PathPoint(x: target.x, y: target.y + target.inputY(Int(edge.targetPort)), curve: true)
        ]
      out +=
        "<path class=\"edge\" data-source=\"\(escape(source.id))\" data-target=\"\(escape(target.id))\" d=\"\(pathData(path))\"/>\n"
    }
    for (index, box) in picture.boxes.enumerated() where !framed.contains(index) {
      write(box, into: &out)
      guard let inside = picture.insides[index] else { continue }
      let top = box.y + inside.top
      out +=
        "<line class=\"frame\" x1=\"\(number(box.x))\" y1=\"\(number(top))\" x2=\"\(number(box.x + box.width))\" y2=\"\(number(top))\"/>\n"
      out +=
        "<g class=\"subgraph\" data-id=\"\(escape(box.id))\" transform=\"translate(\(number(box.x)) \(number(top)))\">\n"
      body(inside.picture, into: &out)
      out += "</g>\n"
    }
  }

  /// SVG path data for `path`: `L` for a straight step (`H`/`V` when level or upright), `C`
  /// for a curve with horizontal ends, its control points halfway across.
  package static func pathData(_ path: [GraphPicture.PathPoint]) -> String {
    guard let first = path.first else { return "" }
    var data = "M\(number(first.x)) \(number(first.y))"
    for step in path.indices.dropFirst() {
      let from = path[step - 1], to = path[step]
      if to.curve {
        let middle = (from.x + to.x).rounded() / 2  // on the half-point grid, inside the step
        data +=
          " C\(number(middle)) \(number(from.y)) \(number(middle)) \(number(to.y)) \(number(to.x)) \(number(to.y))"
      } else if to.y == from.y {
        data += " H\(number(to.x))"
      } else if to.x == from.x {
        data += " V\(number(to.y))"
      } else {
        data += " L\(number(to.x)) \(number(to.y))"
      }
    }
    return data
  }

  package static func write(_ box: GraphPicture.Box, into out: inout String) {
    let x = box.x, y = box.y
    let classes =
      (box.failure == nil ? "" : " failed") + (box.isPortMarker ? " port-marker" : "")
      + (box.isNotNeeded ? " not-needed" : "")
    out += "<g class=\"node\(classes)\" data-id=\"\(escape(box.id))\">"
    out +=
      "<rect class=\"body\" x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(box.width))\" height=\"\(number(box.height))\" rx=\"6\"/>"
    out += "<text class=\"title\" x=\"\(number(x + 10))\" y=\"\(number(y + 18))\">\(escape(box.title))</text>"
    out += "<text class=\"kind\" x=\"\(number(x + 10))\" y=\"\(number(y + 33))\">\(escape(box.kind))</text>"
    var lineY = y + GraphPicture.headerHeight
    for param in box.params {
      out += "<text class=\"param\" x=\"\(number(x + 10))\" y=\"\(number(lineY + 12))\">\(escape(param))</text>"
      lineY += GraphPicture.lineHeight
    }
    // A param an edge may feed: a smaller, hollow handle at its first line.
    for handle in box.paramHandles {
      out +=
        "<circle class=\"param-port\" cx=\"\(number(x))\" cy=\"\(number(y + box.paramLineY(handle.line)))\" r=\"3\"/>"
    }
    for port in box.inputs.indices {
      let portY = y + box.inputY(port)
      out += "<circle class=\"port\" cx=\"\(number(x))\" cy=\"\(number(portY))\" r=\"4\"/>"
      out += "<text x=\"\(number(x + 10))\" y=\"\(number(portY + 4))\">\(escape(box.inputLabel(port)))</text>"
    }
    for (port, label) in box.outputs.enumerated() {
      let portY = y + box.outputY(port)
      out += "<circle class=\"port\" cx=\"\(number(x + box.width))\" cy=\"\(number(portY))\" r=\"4\"/>"
      out +=
        "<text x=\"\(number(x + box.width - 10))\" y=\"\(number(portY + 4))\" text-anchor=\"end\">\(escape(label))</text>"
    }
    var tableY =
      y + GraphPicture.headerHeight + Double(box.params.count) * GraphPicture.lineHeight
      + Double(max(box.inputs.count, box.outputs.count)) * GraphPicture.rowHeight
    for line in box.tableLines {
      out +=
        "<text class=\"table\" x=\"\(number(x + 10))\" y=\"\(number(tableY + 12))\" xml:space=\"preserve\">\(escape(line))</text>"
      tableY += GraphPicture.lineHeight
    }
    // The message whole, one line under another, the last at the box's foot.
    var failureY = y + box.height - 10 - Double(max(0, box.failureLines.count - 1)) * GraphPicture.lineHeight
    for line in box.failureLines {
      out += "<text class=\"failure\" x=\"\(number(x + 10))\" y=\"\(number(failureY))\">\(escape(line))</text>"
      failureY += GraphPicture.lineHeight
    }
    out += "</g>\n"
  }

  /// `& < > " '` as entities, for text and attribute values alike; control characters, which
  /// XML 1.0 does not allow, become U+FFFD (tabs and newlines a space); DEL, C1 controls and
  /// bidi overrides become visible escapes (`\u202E`).
  package static func escape(_ text: String) -> String {
    guard
      text.utf8.contains(where: {
        $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 < 0x20 || $0 == 0x7F || $0 == 0xC2
          || $0 == 0xE2
      })
    else { return text }
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count + 16)
    for character in text.unicodeScalars {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&#39;"
      case "\t", "\n", "\r": escaped += " "
      case "\u{0}"..."\u{1F}": escaped += "\u{FFFD}"  // not allowed in XML 1.0
      default:
        // DEL, C1 controls, bidi overrides: visible escapes (`String.controlEscaped`).
        if let escape = character.controlEscape { escaped += escape } else { escaped.unicodeScalars.append(character) }
      }
    }
    return escaped
  }

  /// A coordinate with at most one decimal (`12`, `12.5`).
  package static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let tenths = Int((value * 10).rounded())
    let whole = tenths / 10, fraction = abs(tenths % 10)
    if fraction == 0 { return String(whole) }
    return (tenths < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
  }
}
