extension SubgraphLibrary {
  /// Validates one definition against the kinds and the definitions it uses (already in
  /// `library`) and finds its ports; reports each problem naming the definition and inner id.
  static func resolve(
    _ name: String, _ definition: SubgraphDefinition, origin: String, library: SubgraphLibrary,
    catalog: some NodeCatalog, collector: inout IssueCollector
  ) -> ResolvedSubgraph? {
    let prefix = origin == SubgraphSource.thisDocument ? "subgraph '\(name)': " : "subgraph '\(name)' (in \(origin)): "
    let before = collector.issues.count + collector.unreportedCount
    for node in definition.nodes where node.id.contains("/") || node.id.isEmpty {
      collector.report(
        GraphIssue(
          .invalidSubgraph,
          prefix + "node id '\(node.id)' must be non-empty and must not contain '/' (inner ids are joined with '/')",
          nodeIDs: [node.id]))
    }
    for edge in definition.edges where edge.id.contains("/") || edge.id.isEmpty {
      collector.report(
        GraphIssue(
          .invalidSubgraph, prefix + "edge id '\(edge.id)' must be non-empty and must not contain '/'", edgeID: edge.id)
      )
    }
    let inner = FlowDocument(nodes: definition.nodes, edges: definition.edges)
    let innerCatalog = SubgraphCatalog(base: catalog, library: library, insideDefinition: true)
    var graph: ResolvedGraph?
    do { graph = try DocumentValidator.validate(inner, catalog: innerCatalog) } catch {
      collector.report(error, prefix: prefix)
    }
    for issue in SubgraphExpander.missingInputs(definition.nodes, definition.edges, library: library) {
      var issue = issue
      issue.message = prefix + issue.message
      collector.report(issue)
    }
    guard let graph, collector.issues.count + collector.unreportedCount == before else { return nil }
    var inputs: [SubgraphPort] = []
    var outputs: [SubgraphPort] = []
    var feeding: [Int32: ResolvedGraph.Edge] = [:]
    for edge in graph.edges { feeding[edge.target] = edge }
    var names: [String: String] = [:]
    for (index, node) in definition.nodes.enumerated() {
      let kind = node.data.kind
      guard kind == SubgraphBoundary.inputKind || kind == SubgraphBoundary.outputKind else { continue }
      let portName = node.data.params["name"]?.stringValue ?? ""
      let side = kind == SubgraphBoundary.inputKind ? "input" : "output"
      if let other = names["\(side):\(portName)"] {
        collector.report(
          GraphIssue(
            .invalidSubgraph,
            prefix + "nodes '\(other)' and '\(node.id)' both declare the \(side) '\(portName)'",
            nodeIDs: [other, node.id]))
        continue
      }
      names["\(side):\(portName)"] = node.id
      if kind == SubgraphBoundary.inputKind {
        inputs.append(
          SubgraphPort(
            name: portName, type: SubgraphBoundary.portType(node.data) ?? .any, nodeID: node.id,
            defaultValue: node.data.params["default"], isLazy: SubgraphBoundary.isLazy(node.data)))
      } else {
        var type = PortType.any
        if let edge = feeding[Int32(index)] {
          type = graph.signatures[Int(edge.source)].outputs[Int(edge.sourcePort)].type
        }
        outputs.append(SubgraphPort(name: portName, type: type, nodeID: node.id))
      }
    }
    guard collector.issues.count + collector.unreportedCount == before else { return nil }
    return ResolvedSubgraph(name: name, definition: definition, origin: origin, inputs: inputs, outputs: outputs)
  }
}
