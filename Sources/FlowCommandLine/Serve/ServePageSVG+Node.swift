import FlowGraph
import FlowLayout
import FlowRuntime

/// One node of the page's picture: its box, title and kind, params (`ServeParamRow`: fields and
/// wrapped texts), ports with their handles and values, table preview and failure, each inside
/// the box `GraphPicture.measure` sized for them.
extension ServePageSVG {
  static func write(
    _ box: GraphPicture.Box, node: FlowNode, inputNames: [String],
    fields: (params: [String: ServeEditable.Field], inputs: [Int: ServeEditable.Field]),
    isLiveSource: Bool, subgraph: String? = nil, into out: inout String
  ) {
    let x = box.x, y = box.y
    let id = escape(box.id)
    // An instance names its definition; the page opens its inside on a double click.
    let instance = subgraph.map { " instance\" data-subgraph=\"\(escape($0))" } ?? ""
    out += "<g class=\"node\(box.failure == nil ? "" : " failed")\(instance)\" data-node=\"\(id)\">"
    if subgraph != nil { out += "<title>\(id): double-click to open its inside</title>" }
    out +=
      "<rect class=\"body\" x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(box.width))\" height=\"\(number(box.height))\" rx=\"6\"/>"
    out += "<text class=\"title\" x=\"\(number(x + 10))\" y=\"\(number(y + 18))\">\(escape(box.title))</text>"
    out += "<text class=\"kind\" x=\"\(number(x + 10))\" y=\"\(number(y + 33))\">\(escape(box.kind))</text>"
    if isLiveSource {
      out +=
        "<text class=\"emissions\" x=\"\(number(x + box.width - 8))\" y=\"\(number(y + 18))\" text-anchor=\"end\">0 emitted</text>"
    }
    // The shown params, in the document's order, as `ServeParamRow.fit` measured them.
    var lineY = y + GraphPicture.headerHeight
    for row in ServeParamRow.rows(of: node, inputNames: Set(inputNames), fields: fields.params) {
      if let field = row.field {
        out += "<text class=\"param\" x=\"\(number(x + 10))\" y=\"\(number(lineY + 12))\">\(escape(row.label))</text>"
        let left = x + 14 + Double(row.label.count) * GraphPicture.charWidth
        let height = Double(row.isMultiLine ? row.lines.count : 1) * GraphPicture.lineHeight
        input(
          field, value: node.data.params[row.name], x: left, y: lineY, width: x + box.width - 8 - left, height: height,
          multiLine: row.isMultiLine, into: &out)
      } else {
        for (offset, line) in row.lines.enumerated() {
          let lineTop = lineY + Double(offset) * GraphPicture.lineHeight
          out +=
            "<text class=\"param\" x=\"\(number(x + 10))\" y=\"\(number(lineTop + 12))\" xml:space=\"preserve\">\(escape(line))</text>"
        }
      }
      lineY += Double(row.lines.count) * GraphPicture.lineHeight
    }
    // A param an edge may feed and none does: a smaller target handle at its first line, which
    // takes a drag like an input's (`/connect` into the param's name).
    for handle in box.paramHandles {
      let name = escape(handle.name)
      out +=
        "<circle class=\"port param-port\" data-port=\"\(id).\(name)\" data-direction=\"in\" data-in=\"\(name)\" data-param-handle=\"\(name)\" "
        + "cx=\"\(number(x))\" cy=\"\(number(y + box.paramLineY(handle.line)))\" r=\"4\"><title>\(name): drop an output here to feed this param</title></circle>"
    }
    for (port, label) in box.inputs.enumerated() {
      let portY = y + box.portY(port)
      let inputName = port < inputNames.count ? inputNames[port] : portName(label)
      out +=
        "<circle class=\"port\" data-port=\"\(id).\(escape(inputName))\" data-direction=\"in\" data-in=\"\(escape(inputName))\" "
        + "cx=\"\(number(x))\" cy=\"\(number(portY))\" r=\"5\"/>"
      if let field = fields.inputs[port] {
        out += "<text x=\"\(number(x + 10))\" y=\"\(number(portY + 4))\">\(escape(inputName))</text>"
        let left = x + 14 + Double(inputName.count) * GraphPicture.charWidth
        let outputChars = port < box.outputs.count ? box.outputs[port].count : 0
        let room = x + box.width - 12 - Double(outputChars) * GraphPicture.charWidth - left
        input(
          field, value: node.data.params[inputName], x: left, y: portY - 8, width: min(90, max(44, room)),
          height: GraphPicture.lineHeight,
          multiLine: false, into: &out)
      } else {
        let fed = box.fedParams.contains(port) ? " class=\"fed\"" : ""
        out +=
          "<text\(fed) x=\"\(number(x + 10))\" y=\"\(number(portY + 4))\">\(escape(label + (fed.isEmpty ? "" : GraphPicture.fedMark)))</text>"
      }
    }
    for (port, label) in box.outputs.enumerated() {
      let portY = y + box.portY(port)
      let name = escape(portName(label))
      out +=
        "<circle class=\"port\" data-port=\"\(id).\(name)\" data-direction=\"out\" data-out=\"\(name)\" "
        + "cx=\"\(number(x + box.width))\" cy=\"\(number(portY))\" r=\"5\"/>"
      out +=
        "<text class=\"value\" data-value=\"\(name)\" x=\"\(number(x + box.width - 10))\" y=\"\(number(portY + 4))\" text-anchor=\"end\">\(escape(label))</text>"
    }
    // A table's columns and first rows under the ports, as `flow render --values` draws them
    // (the picture is drawn again when they change: `ServeSession.shape(of:in:)`).
    var tableY =
      y + GraphPicture.headerHeight + Double(box.params.count) * GraphPicture.lineHeight
      + Double(max(box.inputs.count, box.outputs.count)) * GraphPicture.rowHeight
    for line in box.tableLines {
      out +=
        "<text class=\"table\" x=\"\(number(x + 10))\" y=\"\(number(tableY + 12))\" xml:space=\"preserve\">\(escape(line))</text>"
      tableY += GraphPicture.lineHeight
    }
    // A failed node's message; the page adds the element when a node fails later, and a refused
    // edit's `rejection` line under the box (fewer elements: a 1,000-node page parses faster).
    if box.failure != nil { failure(box, into: &out) }
    out += "</g>\n"
  }

  /// The failure's message whole, one line under another (`GraphPicture.wrap`), the last at the
  /// box's foot, as `flow render --values` draws it; `data-text` holds the message, so the page
  /// redraws the lines only when it changes.
  static func failure(_ box: GraphPicture.Box, into out: inout String) {
    let x = number(box.x + 10)
    let firstY = box.y + box.height - 10 - Double(max(0, box.failureLines.count - 1)) * GraphPicture.lineHeight
    out +=
      "<text class=\"failure\" data-text=\"\(escape(box.failure ?? ""))\" x=\"\(x)\" y=\"\(number(firstY))\" xml:space=\"preserve\">"
    for (index, line) in box.failureLines.enumerated() {
      out += "<tspan x=\"\(x)\" dy=\"\(index == 0 ? 0 : Int(GraphPicture.lineHeight))\">\(escape(line))</tspan>"
    }
    out += "</text>"
  }

  /// An HTML field in a `foreignObject`: a checkbox for a bool, a `textarea` for a multi-line
  /// text (Enter is a new line, Ctrl/Cmd+Enter commits), a text field otherwise.
  static func input(
    _ field: ServeEditable.Field, value: JSONValue?, x: Double, y: Double, width: Double, height: Double,
    multiLine: Bool, into out: inout String
  ) {
    let type = field.type.rawValue
    out +=
      "<foreignObject x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(max(20, width)))\" height=\"\(number(height))\">"
    let common =
      "xmlns=\"http://www.w3.org/1999/xhtml\" data-param=\"\(escape(field.name))\" data-type=\"\(type)\" data-input=\"\(field.isInput)\""
    let text = value.map(ServeEditable.text) ?? ""
    if field.type == .bool {
      let checked = value == .bool(true) ? " checked=\"checked\"" : ""
      out += "<input \(common) type=\"checkbox\"\(checked)/>"
    } else if multiLine {
      out += "<textarea \(common) spellcheck=\"false\" wrap=\"soft\">\(textareaEscape(text))</textarea>"
    } else {
      out += "<input \(common) type=\"text\" spellcheck=\"false\" value=\"\(escape(text))\"/>"
    }
    out += "</foreignObject>"
  }

  /// A textarea's content: escaped like any text, except that line breaks are kept; it opens
  /// with a line break, which an HTML parser drops (so a text that opens with one keeps it).
  static func textareaEscape(_ text: String) -> String {
    "\n"
      + text.split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }.joined(separator: "\n")
  }
}
