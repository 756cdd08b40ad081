/// Every edge joins an existing node's output port to an existing node's input port of a
/// compatible type; a handle-less end refers to the node's only port on that side.
///
/// Every edge between two existing nodes is also recorded in `context.dependencies`, whatever
/// else is wrong with it, for the cycle rule.
///
/// - Complexity: O(*m* + *p*) for *m* edges and *p* ports: ports are found through a name index
///   per node (built once, for nodes with many ports), never by a search per edge.
enum EdgeEndpointRule {
  static func check(_ context: inout ValidationContext) {
    context.edges.reserveCapacity(context.document.edges.count)
    var portIndex = PortIndex()
    // While every edge resolves, `dependencies` would equal `edges`: it is only filled (with
    // the edges so far) from the first edge that does not.
    var separateDependencies = false
    func divergeDependencies(_ context: inout ValidationContext) {
      guard !separateDependencies else { return }
      separateDependencies = true
      context.dependencies = context.edges
    }
    defer { if !separateDependencies { context.dependencies = context.edges } }
    // Local copies (one retain each): reading an element then borrows it, where reading
    // through `context`, which the loop mutates, copies it (retains) per edge.
    let nodeIDs = context.nodeIDs
    let nodeTable = context.nodeTable
    let signatures = context.signatures
    // Every endpoint looked up first, in batches whose memory accesses overlap.
    let documentEdges = context.document.edges
    let sources = nodeTable.positions(
      count: documentEdges.count, id: { documentEdges[$0].sourceNodeID },
      idAt: { nodeIDs[Int($0)] })
    let targets = nodeTable.positions(
      count: documentEdges.count, id: { documentEdges[$0].targetNodeID },
      idAt: { nodeIDs[Int($0)] })
    // And the signature of each end, gathered in tight loops whose cache misses overlap (in
    // the loop below, each would wait on its own).
    let sourceSignatures = signatures.indices(of: sources)
    let targetSignatures = signatures.indices(of: targets)
    for (position, edge) in documentEdges.enumerated() {
      let source = sources[position] >= 0 ? sources[position] : nil
      let target = targets[position] >= 0 ? targets[position] : nil
      if source == nil {
        context.report(
          GraphIssue(
            .missingNode, "edge '\(edge.id)' starts at node '\(edge.sourceNodeID)', which does not exist",
            nodeIDs: [edge.sourceNodeID], edgeID: edge.id, handleID: edge.sourceHandleID))
      }
      if target == nil {
        context.report(
          GraphIssue(
            .missingNode, "edge '\(edge.id)' ends at node '\(edge.targetNodeID)', which does not exist",
            nodeIDs: [edge.targetNodeID], edgeID: edge.id, handleID: edge.targetHandleID))
      }
      guard let source, let target else {
        divergeDependencies(&context)
        continue
      }
      let dependency = ResolvedGraph.Edge(
        source: source, sourcePort: -1, target: target, targetPort: -1,
        documentIndex: Int32(position))
      guard let sourceSignature = signatures.signature(at: sourceSignatures[position]),
        let targetSignature = signatures.signature(at: targetSignatures[position])
      else {
        divergeDependencies(&context)
        context.dependencies.append(dependency)
        continue
      }
      let ports = (
        source: portIndex.ports(of: source, sourceSignature), target: portIndex.ports(of: target, targetSignature)
      )
      // The common case, without building closures or results: few ports, both ends found, types
      // compatible. Anything else goes through `resolve`, which finds the same ports or the issues.
      if ports.source == nil, ports.target == nil,
        let sourcePort = quickPort(edge.sourceHandleID, sourceSignature.outputs),
        let targetPort = quickPort(edge.targetHandleID, targetSignature.inputs),
        targetSignature.inputs[targetPort].type.accepts(sourceSignature.outputs[sourcePort].type)
      {
        context.edges.append(
          ResolvedGraph.Edge(
            source: source, sourcePort: Int32(sourcePort), target: target,
            targetPort: Int32(targetPort), documentIndex: Int32(position)))
        if separateDependencies { context.dependencies.append(dependency) }
        continue
      }
      switch resolve(
        edge, sourceSignature: sourceSignature, targetSignature: targetSignature,
        sourcePorts: ports.source, targetPorts: ports.target)
      {
      case .success(let ports):
        context.edges.append(
          ResolvedGraph.Edge(
            source: source, sourcePort: ports.source, target: target,
            targetPort: ports.target, documentIndex: Int32(position)))
        if separateDependencies { context.dependencies.append(dependency) }
      case .failure(let failure):
        divergeDependencies(&context)
        context.dependencies.append(dependency)
        for issue in failure.issues { context.report(issue) }
      }
    }
  }

  /// The port `handle` names among `ports` (a missing handle: the only port), as `resolve`
  /// finds it when it succeeds; `nil` when `resolve` would report an issue.
  @inline(__always)
  private static func quickPort(_ handle: String?, _ ports: [PortDeclaration]) -> Int? {
    guard let handle else { return ports.count == 1 ? 0 : nil }
    return ports.firstIndex { $0.name == handle }
  }

  /// Resolves the ports of one edge between two resolved nodes.
  ///
  /// - Returns: the output port index on the source and the input port index on the target, or
  ///   every issue with the edge (unknown handle, wrong direction, ambiguity, type mismatch).
  ///
  /// - Parameters:
  ///   - sourcePorts: a name index of the source's ports, for nodes with many (`nil`: search).
  ///   - targetPorts: the same for the target.
  static func resolve(
    _ edge: FlowEdge, sourceSignature: NodeSignature, targetSignature: NodeSignature,
    sourcePorts: PortNames? = nil, targetPorts: PortNames? = nil
  )
    -> Result<(source: Int32, target: Int32), GraphValidationError>
  {
    var issues: [GraphIssue] = []
    let sourcePort = port(
      edge, nodeID: edge.sourceNodeID, handle: edge.sourceHandleID, wanted: sourceSignature.outputs,
      other: sourceSignature.inputs, side: "output",
      lookup: sourcePorts.map { names in { names.outputs[$0] } },
      isOther: sourcePorts.map { names in { names.inputs[$0] != nil } }, into: &issues)
    let targetPort = port(
      edge, nodeID: edge.targetNodeID, handle: edge.targetHandleID, wanted: targetSignature.inputs,
      other: targetSignature.outputs, side: "input",
      lookup: targetPorts.map { names in { names.inputs[$0] } },
      isOther: targetPorts.map { names in { names.outputs[$0] != nil } }, into: &issues)
    guard let sourcePort, let targetPort else { return .failure(GraphValidationError(issues: issues)) }
    let from = sourceSignature.outputs[sourcePort]
    let to = targetSignature.inputs[targetPort]
    guard to.type.accepts(from.type) else {
      // An input that feeds a param is named as the param (the user wrote a param there).
      let target =
        targetSignature.parameterInput(named: to.name) == nil
        ? "\(edge.targetNodeID).\(to.name) takes \(to.type)"
        : "param '\(to.name)' of node '\(edge.targetNodeID)' takes \(to.type.articleName)"
      return .failure(
        GraphValidationError(
          GraphIssue(
            .typeMismatch,
            "edge '\(edge.id)': \(edge.sourceNodeID).\(from.name) is \(from.type) but \(target)",
            nodeIDs: [edge.sourceNodeID, edge.targetNodeID], edgeID: edge.id, handleID: to.name)))
    }
    return .success((Int32(sourcePort), Int32(targetPort)))
  }

  private static func port(
    _ edge: FlowEdge, nodeID: String, handle: String?, wanted: [PortDeclaration],
    other: [PortDeclaration], side: String, lookup: ((String) -> Int?)?,
    isOther: ((String) -> Bool)?, into issues: inout [GraphIssue]
  ) -> Int? {
    let end = side == "output" ? "starts at" : "ends at"
    guard let handle else {
      if wanted.count == 1 { return 0 }
      let reason =
        wanted.isEmpty
        ? "which has no \(side) port"
        : "which has \(wanted.count) \(side) ports (\(wanted.map(\.name).joined(separator: ", "))); name the handle"
      issues.append(
        GraphIssue(
          wanted.isEmpty ? .unknownHandle : .ambiguousHandle,
          "edge '\(edge.id)' \(end) node '\(nodeID)' without a handle id, \(reason)", nodeIDs: [nodeID], edgeID: edge.id
        ))
      return nil
    }
    if let index = lookup.map({ $0(handle) }) ?? wanted.firstIndex(where: { $0.name == handle }) { return index }
    if isOther.map({ $0(handle) }) ?? other.contains(where: { $0.name == handle }) {
      let direction = side == "output" ? "out of the input" : "into the output"
      issues.append(
        GraphIssue(
          .wrongDirection, "edge '\(edge.id)' goes \(direction) '\(handle)' of node '\(nodeID)'",
          nodeIDs: [nodeID], edgeID: edge.id, handleID: handle))
    } else {
      let known =
        wanted.isEmpty
        ? "it has no \(side) ports" : "its \(side) ports are \(wanted.map(\.name).joined(separator: ", "))"
      issues.append(
        GraphIssue(
          .unknownHandle, "edge '\(edge.id)' \(end) unknown handle '\(handle)' of node '\(nodeID)' (\(known))",
          nodeIDs: [nodeID], edgeID: edge.id, handleID: handle))
    }
    return nil
  }
}

/// The port names of one node's signature, by name (the first port of each name).
struct PortNames {
  var inputs: [String: Int]
  var outputs: [String: Int]

  init(_ signature: NodeSignature) {
    inputs = Dictionary(signature.inputs.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    outputs = Dictionary(signature.outputs.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
  }
}

/// Name indexes of the nodes with many ports, built on first use.
///
/// A node with a few ports is searched directly; one with more than `threshold` (an
/// `expression` with thousands of variables) gets a dictionary once, so resolving *m* edges
/// into it costs O(*m*), not O(*m* × ports).
struct PortIndex {
  static let threshold = 16
  private var byNode: [Int32: PortNames] = [:]

  mutating func ports(of node: Int32, _ signature: NodeSignature) -> PortNames? {
    guard signature.inputs.count + signature.outputs.count > Self.threshold else { return nil }
    if let names = byNode[node] { return names }
    let names = PortNames(signature)
    byNode[node] = names
    return names
  }
}
