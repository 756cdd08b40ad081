/// A Mermaid flowchart of a `GraphPicture`, left to right: nodes are `n0`, `n1`, … (ids are
/// labels only, so no id can break the syntax), a subgraph per group, edges labelled
/// `output → input`, failed nodes styled red.
package enum MermaidWriter {
  package static func mermaid(_ picture: GraphPicture) -> String {
    var out = "flowchart LR\n"
    var edges = "", styles = ""
    level(picture, name: "n", indent: "  ", into: &out, edges: &edges, styles: &styles)
    return out + edges + styles
  }

  /// The subgraphs and nodes of one picture, its edges and styles after them (see
  /// `DotWriter.level`); a node inside an expanded instance is named by its path of box
  /// indices (`n3_0_2`), an instance's subgraph `s` and its path.
  static func level(
    _ picture: GraphPicture, name: String, indent: String, into out: inout String,
    edges: inout String, styles: inout String
  ) {
    let framed = picture.groupsWithChildren
    var clustered = Set<Int>()
    func item(_ index: Int, _ box: GraphPicture.Box, _ indent: String) {
      guard let inside = picture.insides[index] else {
        out += indent + node(name + "\(index)", box) + "\n"
        return
      }
      out +=
        "\(indent)subgraph s\(name.dropFirst())\(index)[\"\(([box.title + " · " + box.kind] + box.inputs.filter { $0.contains(" = ") }).map(escape).joined(separator: "<br/>"))\"]\n"
      level(inside.picture, name: name + "\(index)_", indent: indent + "  ", into: &out, edges: &edges, styles: &styles)
      out += "\(indent)end\n"
    }
    for group in framed.sorted() {
      out += "\(indent)subgraph g\(name.dropFirst())\(group)[\"\(escape(picture.boxes[group].title))\"]\n"
      for (index, box) in picture.boxes.enumerated() where box.parent == group && !framed.contains(index) {
        item(index, box, indent + "  ")
        clustered.insert(index)
      }
      out += "\(indent)end\n"
    }
    for (index, box) in picture.boxes.enumerated() where !framed.contains(index) && !clustered.contains(index) {
      item(index, box, indent)
    }
    func named(_ path: [Int]) -> String { name + path.map(String.init).joined(separator: "_") }
    for edge in picture.edges {
      let source = picture.boxes[Int(edge.source)], target = picture.boxes[Int(edge.target)]
      let label =
        DotWriter.portName(source.outputs[Int(edge.sourcePort)]) + " → "
        + DotWriter.portName(target.inputs[Int(edge.targetPort)])
      let from = named(picture.outputEnd(Int(edge.source), port: Int(edge.sourcePort)))
      let to = named(picture.inputEnd(Int(edge.target), port: Int(edge.targetPort)))
      edges += "  \(from) -->|\"\(escape(label))\"| \(to)\n"
    }
    for (index, box) in picture.boxes.enumerated() where box.failure != nil && picture.insides[index] == nil {
      styles += "  style \(name)\(index) fill:#fff1f0,stroke:#c62828,color:#c62828\n"
    }
  }

  package static func node(_ name: String, _ box: GraphPicture.Box) -> String {
    var lines = [box.title, box.kind] + box.params + box.inputs.filter { $0.contains(" = ") }  // inputs set by params
    lines += box.outputs.filter { $0.contains(" = ") }
    if let failure = box.failure { lines.append(failure) }
    return "\(name)[\"\(lines.map(escape).joined(separator: "<br/>"))\"]"
  }

  /// Mermaid's entity codes for the characters that would end a label or become markup; other
  /// control characters as visible escapes (`String.controlEscaped`).
  package static func escape(_ text: String) -> String {
    var escaped = ""
    for character in text.unicodeScalars {
      switch character {
      case "\"": escaped += "#quot;"
      case "&": escaped += "#amp;"
      case "<": escaped += "#lt;"
      case ">": escaped += "#gt;"
      case "#": escaped += "#35;"
      case "'": escaped += "#39;"
      case "\n", "\r", "\t": escaped += " "
      default:
        if let escape = character.controlEscape { escaped += escape } else { escaped.unicodeScalars.append(character) }
      }
    }
    return escaped
  }
}
