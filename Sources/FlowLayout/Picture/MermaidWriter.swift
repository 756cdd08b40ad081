/// A Mermaid flowchart of a `GraphPicture`, left to right: nodes are `n0`, `n1`, … (ids are
/// labels only, so no id can break the syntax), a subgraph per group, edges labelled
/// `output → input`, failed nodes styled red.
package enum MermaidWriter {
  package static func mermaid(_ picture: GraphPicture) -> String {
    var out = "flowchart LR\n"
    let framed = picture.groupsWithChildren
    var clustered = Set<Int>()
    for group in framed.sorted() {
      out += "  subgraph g\(group)[\"\(escape(picture.boxes[group].title))\"]\n"
      for (index, box) in picture.boxes.enumerated() where box.parent == group && !framed.contains(index) {
        out += "    " + node(index, box) + "\n"
        clustered.insert(index)
      }
      out += "  end\n"
    }
    for (index, box) in picture.boxes.enumerated() where !framed.contains(index) && !clustered.contains(index) {
      out += "  " + node(index, box) + "\n"
    }
    for edge in picture.edges {
      let source = picture.boxes[Int(edge.source)], target = picture.boxes[Int(edge.target)]
      let label = DotWriter.portName(source.outputs[Int(edge.sourcePort)]) + " → "
        + DotWriter.portName(target.inputs[Int(edge.targetPort)])
      out += "  n\(edge.source) -->|\"\(escape(label))\"| n\(edge.target)\n"
    }
    for (index, box) in picture.boxes.enumerated() where box.failure != nil {
      out += "  style n\(index) fill:#fff1f0,stroke:#c62828,color:#c62828\n"
    }
    return out
  }

  package static func node(_ index: Int, _ box: GraphPicture.Box) -> String {
    var lines = [box.title, box.kind] + box.params + box.inputs.filter { $0.contains(" = ") }  // inputs set by params
    lines += box.outputs.filter { $0.contains(" = ") }
    if let failure = box.failure { lines.append(failure) }
    return "n\(index)[\"\(lines.map(escape).joined(separator: "<br/>"))\"]"
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
