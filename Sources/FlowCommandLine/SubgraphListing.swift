import FlowGraph

/// How `flow nodes FILE` lists a document's subgraph kinds.
enum SubgraphListing {
  static func text(of subgraph: ResolvedSubgraph) -> String {
    let origin = subgraph.origin == SubgraphSource.thisDocument ? "defined here" : "imported from \(subgraph.origin)"
    var lines = [
      "\(subgraph.name.controlEscaped) — \((subgraph.definition.summary ?? "a subgraph").controlEscaped) (subgraph, \(origin.controlEscaped))"
    ]
    if !subgraph.inputs.isEmpty {
      lines.append(
        "  inputs:  "
          + subgraph.inputs.map { port in
            "\(port.name.controlEscaped): \(port.type)"
              + (port.defaultValue.map { " = \($0.serialized(options: []).controlEscaped)" } ?? " (required)")
              + (port.isLazy ? " (lazy)" : "")
          }.joined(separator: ", "))
    }
    if !subgraph.outputs.isEmpty {
      lines.append(
        "  outputs: " + subgraph.outputs.map { "\($0.name.controlEscaped): \($0.type)" }.joined(separator: ", "))
    }
    lines.append("  nodes:   \(subgraph.definition.nodes.count), edges: \(subgraph.definition.edges.count)")
    return lines.joined(separator: "\n") + "\n"
  }

  static func json(of subgraph: ResolvedSubgraph) -> JSONValue {
    .object([
      "name": .string(subgraph.name),
      "summary": subgraph.definition.summary.map(JSONValue.string) ?? .null,
      "origin": .string(subgraph.origin),
      "inputs": .array(
        subgraph.inputs.map { port in
          var object: JSONObject = [
            "name": .string(port.name), "type": .string(port.type.rawValue), "required": .bool(port.isRequired)
          ]
          if let value = port.defaultValue { object["default"] = value }
          if port.isLazy { object["lazy"] = .bool(true) }
          return .object(object)
        }),
      "outputs": .array(subgraph.outputs.map { .object(["name": .string($0.name), "type": .string($0.type.rawValue)]) })
    ])
  }
}
