/// Graphviz DOT of a `GraphPicture`, left to right: a box per node (title, kind, params, inputs
/// set by params, outputs with values and failure as label lines), an edge per edge labelled `output → input`, a cluster per group.
package enum DotWriter {
  package static func dot(_ picture: GraphPicture) -> String {
    var out = "digraph flow {\n  rankdir=LR;\n  node [shape=box, style=\"rounded\", fontname=\"Helvetica\"];\n"
    var edges = ""
    level(picture, indent: "  ", into: &out, edges: &edges)
    return out + edges + "}\n"
  }

  /// The clusters and nodes of one picture (an expanded instance: a cluster of its inside,
  /// not a node), and its edges into `edges` (written after every node, so none is declared by
  /// an edge in the wrong cluster); an edge into or out of an expanded instance's port joins
  /// the port's `input` or `output` node inside it.
  static func level(_ picture: GraphPicture, indent: String, into out: inout String, edges: inout String) {
    let framed = picture.groupsWithChildren
    var clustered = Set<Int>()
    func item(_ index: Int, _ box: GraphPicture.Box, _ indent: String) {
      guard let inside = picture.insides[index] else {
        out += indent + node(box) + "\n"
        return
      }
      out +=
        indent
        + "subgraph \(quote("cluster_" + box.id)) {\n\(indent)  label=\(quote(([box.title + " · " + box.kind] + box.inputs.filter { $0.contains(" = ") }).joined(separator: "\n")));\n"
      level(inside.picture, indent: indent + "  ", into: &out, edges: &edges)
      out += indent + "}\n"
    }
    for group in framed.sorted() {
      out +=
        "\(indent)subgraph \(quote("cluster_" + picture.boxes[group].id)) {\n\(indent)  label=\(quote(picture.boxes[group].title));\n"
      for (index, box) in picture.boxes.enumerated() where box.parent == group && !framed.contains(index) {
        item(index, box, indent + "  ")
        clustered.insert(index)
      }
      out += "\(indent)}\n"
    }
    for (index, box) in picture.boxes.enumerated() where !framed.contains(index) && !clustered.contains(index) {
      item(index, box, indent)
    }
    for edge in picture.edges {
      let source = picture.boxes[Int(edge.source)], target = picture.boxes[Int(edge.target)]
      let label =
        Self.portName(source.outputs[Int(edge.sourcePort)]) + " → " + Self.portName(target.inputs[Int(edge.targetPort)])
      let from = picture.box(at: picture.outputEnd(Int(edge.source), port: Int(edge.sourcePort))).id
      let to = picture.box(at: picture.inputEnd(Int(edge.target), port: Int(edge.targetPort))).id
      edges += "  \(quote(from)) -> \(quote(to)) [label=\(quote(label))];\n"
    }
  }

  package static func node(_ box: GraphPicture.Box) -> String {
    var lines = [box.title, box.kind] + box.params
    lines += box.inputs.filter { $0.contains(" = ") }  // inputs set by params
    lines += box.outputs.filter { $0.contains(" = ") }
    var attributes = "label=\(quote(lines.joined(separator: "\n")))"
    if let failure = box.failure {
      attributes = "label=\(quote((lines + [failure]).joined(separator: "\n"))), color=red, fontcolor=red"
    }
    return "\(quote(box.id)) [\(attributes)];"
  }

  /// A port's name without its value.
  package static func portName(_ label: String) -> String {
    label.firstRange(of: " = ").map { String(label[..<$0.lowerBound]) } ?? label
  }

  /// A DOT string: `"` and `\` escaped, newlines as `\n`; other control characters as
  /// visible escapes (`String.controlEscaped`, its backslash doubled so DOT shows it).
  package static func quote(_ text: String) -> String {
    var quoted = "\""
    for character in text.unicodeScalars {
      switch character {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case "\n": quoted += "\\n"
      case "\r", "\t": quoted += " "
      default:
        if let escape = character.controlEscape {
          quoted += "\\" + escape
        } else {
          quoted.unicodeScalars.append(character)
        }
      }
    }
    return quoted + "\""
  }
}
