extension DocumentReader {
  /// Reads `flowRuntime.subgraphs`: name → `{"summary": …, "nodes": […], "edges": […]}`. Each
  /// problem names the definition (`subgraph 'loan': node 'r' …`).
  mutating func subgraphs(_ value: JSONValue) -> [String: SubgraphDefinition] {
    guard let object = value.objectValue else {
      fail(nil, nil, "'flowRuntime.subgraphs' must be an object of definitions by name, found \(value.typeName)");
      return [:]
    }
    var result: [String: SubgraphDefinition] = [:]
    subgraphOrder = ObjectShape.of(object) { _ in true }?.order
    for member in object.members {
      if let definition = subgraph(member.value, name: member.key) { result[member.key] = definition }
    }
    return result
  }

  mutating func subgraph(_ value: JSONValue, name: String) -> SubgraphDefinition? {
    let what = "subgraph '\(name.controlEscaped)'"
    guard let object = value.objectValue else {
      fail(
        nil, nil, "\(what) must be an object {\"summary\": …, \"nodes\": […], \"edges\": […]}, found \(value.typeName)")
      return nil
    }
    var inner = DocumentReader()
    var definition = SubgraphDefinition()
    for member in object.members {
      switch member.key {
      case "summary":
        if let text = member.value.stringValue {
          definition.summary = text
        } else if !member.value.isNull {
          inner.fail(nil, nil, "'summary' must be a string, found \(member.value.typeName)")
        }
      case "nodes":
        guard let array = member.value.arrayValue else {
          inner.fail(nil, nil, "'nodes' must be an array, found \(member.value.typeName)"); continue
        }
        definition.nodes = []
        for (position, element) in array.enumerated() {
          if let node = inner.node(element, position: position) { definition.nodes.append(node) }
        }
      case "edges":
        guard let array = member.value.arrayValue else {
          inner.fail(nil, nil, "'edges' must be an array, found \(member.value.typeName)"); continue
        }
        definition.edges = []
        for (position, element) in array.enumerated() {
          if let edge = inner.edge(element, position: position) { definition.edges.append(edge) }
        }
      default:
        definition.extra.members.append(member)
      }
    }
    if object["nodes"] == nil { inner.fail(nil, nil, "it has no 'nodes' array") }
    definition.keyOrder = ObjectShape.of(object) { _ in true }?.order
    let before = problemCount
    for issue in inner.issues {
      report(issue.code, "\(what): \(issue.message)", nodeID: issue.nodeIDs.first, edgeID: issue.edgeID)
    }
    unreportedCount += inner.unreportedCount
    return problemCount == before ? definition : nil
  }

  /// Reads `flowRuntime.imports`: an array of paths.
  mutating func imports(_ value: JSONValue) -> [String] {
    guard let array = value.arrayValue else {
      fail(nil, nil, "'flowRuntime.imports' must be an array of paths, found \(value.typeName)"); return []
    }
    var paths: [String] = []
    for (position, element) in array.enumerated() {
      if let path = element.stringValue, !path.isEmpty {
        paths.append(path)
      } else {
        fail(nil, nil, "'flowRuntime.imports[\(position)]' must be a non-empty path, found \(element.typeName)")
      }
    }
    return paths
  }
}
