/// The validated mutations: each checks everything first (Reference.md, "Validation"), throws every problem it
/// found without changing anything, and only then performs its steps into `log`.
///
/// Messages match `DocumentValidator`'s where the problem is the same (the same rule code
/// produces them), and name the node, edge, handle or param concerned.
extension StoreState {
  /// Adds a node without edges.
  ///
  /// - Throws: a duplicate id, an unknown kind, invalid params, or handles that disagree with
  ///   the kind's ports.
  /// - Complexity: O(1) plus resolving the spec.
  mutating func addNode(_ node: FlowNode, log: inout StoreLog) throws(GraphValidationError) {
    var issues: [GraphIssue] = []
    if nodeSlot(node.id) != nil {
      issues.append(
        GraphIssue(
          .duplicateNodeID, "duplicate node id '\(node.id)': the store already has a node with that id",
          nodeIDs: [node.id]))
    }
    let (signature, payload) = resolve(node, into: &issues)
    guard issues.isEmpty, let signature else { throw GraphValidationError(issues: issues) }
    log.resolutions.payloads[log.items.count] = payload
    perform(.insertNode(slot: Int32(nodes.count), node: node, signature: signature), into: &log)
  }

  /// Removes a node and, first, its edges (in the order of `edges`).
  ///
  /// - Throws: `.unknownNode` if there is no such node.
  /// - Complexity: O(*d* log *d*) for a node of degree *d*, plus the removal of each edge.
  mutating func removeNode(id: String, log: inout StoreLog) throws(GraphValidationError) {
    guard let slot = nodeSlot(id) else {
      throw GraphValidationError(
        GraphIssue(
          .unknownNode, "cannot remove node '\(id)': there is no node with that id",
          nodeIDs: [id]))
    }
    for edge in edgeSlots(of: slot) {
      let end = ends[Int(edge)]
      perform(.deleteEdge(slot: edge), into: &log)
      // An edge out of the node into a param of another: that param's written value applies again.
      if end.target != slot { releaseParameterInput(of: end.target, port: end.targetPort, log: &log) }
    }
    perform(.deleteNode(slot: slot), into: &log)
  }

  /// Replaces the node with the same id. A change of spec or handles must resolve, and every
  /// edge of the node must still resolve against the new ports, one edge per input.
  ///
  /// - Throws: `.unknownNode`, the spec's problems, or each edge that would no longer fit.
  /// - Complexity: O(1) when only geometry or selection changes; resolving the spec when the
  ///   ports stay the same; otherwise also resolving every edge of the node.
  ///
  /// - Parameters:
  ///   - presolved: the spec's signature and payload where the caller resolved it already (a
  ///     definition's inner node, resolved once for all instances; no handles).
  ///   - knownSlot: the node's slot where the caller looked it up already.
  mutating func updateNode(
    _ node: FlowNode, presolved: (signature: NodeSignature, payload: (any Sendable)?)? = nil,
    knownSlot: Int32? = nil, log: inout StoreLog
  ) throws(GraphValidationError) {
    guard let slot = knownSlot ?? nodeSlot(node.id), let old = nodes[Int(slot)] else {
      throw GraphValidationError(
        GraphIssue(
          .unknownNode, "cannot update node '\(node.id)': there is no node with that id",
          nodeIDs: [node.id]))
    }
    guard old.data != node.data || old.handles != node.handles else {
      guard old != node else { return }
      perform(.replaceNode(slot: slot, node: node, signature: signatures[Int(slot)], ports: []), into: &log)
      return
    }
    var issues: [GraphIssue] = []
    let (resolved, payload) = presolved.map { ($0.signature, $0.payload) } ?? resolve(node, into: &issues)
    guard let resolved, issues.isEmpty else { throw GraphValidationError(issues: issues) }
    // The params its edges feed stay inputs (or the edges into them are reported below).
    let signature = self.signature(of: slot, resolvedAs: resolved)
    guard signature != signatures[Int(slot)] else {
      // Edges resolve against signatures only: with the same ports, every edge stays as it is.
      log.resolutions.payloads[log.items.count] = payload
      perform(.replaceNode(slot: slot, node: node, signature: signatures[Int(slot)], ports: []), into: &log)
      return
    }
    var ports: [StoreStep.EdgePorts] = []
    var taken = [Int32](repeating: -1, count: signature.inputs.count)
    for edgeSlot in edgeSlots(of: slot) {
      let end = ends[Int(edgeSlot)]
      let edge = self.edge(at: edgeSlot)!
      let isIncoming = end.target == slot
      let resolution = EdgeEndpointRule.resolve(
        edge, sourceSignature: isIncoming ? signatures[Int(end.source)] : signature,
        targetSignature: isIncoming ? signature : signatures[Int(end.target)])
      switch resolution {
      case .failure(let failure):
        issues += failure.issues.map { issue in
          var issue = issue
          issue.message =
            "node '\(node.id)' cannot change: its \(isIncoming ? "incoming" : "outgoing") \(issue.message)"
          return issue
        }
      case .success(let resolved):
        ports.append(.init(edge: edgeSlot, sourcePort: resolved.source, targetPort: resolved.target))
        guard isIncoming else { continue }
        let other = taken[Int(resolved.target)]
        if other >= 0 {
          let input = signature.inputs[Int(resolved.target)].name
          issues.append(
            GraphIssue(
              .inputAlreadyConnected,
              "node '\(node.id)' cannot change: edges '\(edgeIDs[Int(other)])' and '\(edge.id)' would both go into its input '\(input)'; an input takes one",
              nodeIDs: [node.id], edgeID: edge.id, handleID: input))
        }
        taken[Int(resolved.target)] = edgeSlot
      }
    }
    guard issues.isEmpty else { throw GraphValidationError(issues: issues) }
    log.resolutions.payloads[log.items.count] = payload
    perform(.replaceNode(slot: slot, node: node, signature: signature, ports: ports), into: &log)
  }

  /// Adds an edge from an output port to a free input port, keeping the graph acyclic.
  ///
  /// - Throws: a duplicate id, missing nodes, unknown or ambiguous handles, wrong direction,
  ///   incompatible types, an input already connected (naming its edge), or the cycle the
  ///   edge would close (self-loops included).
  /// - Complexity: O(*d*) for the endpoints' degrees, plus the topological order's affected
  ///   region; never a full re-sort.
  mutating func addEdge(_ edge: FlowEdge, log: inout StoreLog) throws(GraphValidationError) {
    var issues: [GraphIssue] = []
    if edgeSlot(edge.id) != nil {
      issues.append(
        GraphIssue(
          .duplicateEdgeID, "duplicate edge id '\(edge.id)': the store already has an edge with that id",
          edgeID: edge.id))
    }
    let (end, fed) = try attachment(of: edge, replacing: -1, issues: issues)
    if let fed { feedParameter(of: end.target, signature: fed, log: &log) }
    perform(.insertEdge(slot: Int32(ends.count), edge: edge, ends: end), into: &log)
  }

  /// Removes an edge.
  ///
  /// - Throws: `.unknownEdge` if there is no such edge.
  mutating func removeEdge(id: String, log: inout StoreLog) throws(GraphValidationError) {
    guard let slot = edgeSlot(id) else {
      throw GraphValidationError(
        GraphIssue(
          .unknownEdge, "cannot remove edge '\(id)': there is no edge with that id",
          edgeID: id))
    }
    let end = ends[Int(slot)]
    perform(.deleteEdge(slot: slot), into: &log)
    releaseParameterInput(of: end.target, port: end.targetPort, log: &log)
  }

  /// Replaces the edge with the same id. When an endpoint (node or handle) changes, the edge
  /// is checked as if removed and added again, in one step.
  ///
  /// - Throws: `.unknownEdge`, or what `addEdge` would throw for the new endpoints.
  mutating func updateEdge(_ edge: FlowEdge, log: inout StoreLog) throws(GraphValidationError) {
    guard let slot = edgeSlot(edge.id), let old = self.edge(at: slot) else {
      throw GraphValidationError(
        GraphIssue(
          .unknownEdge, "cannot update edge '\(edge.id)': there is no edge with that id",
          edgeID: edge.id))
    }
    guard old != edge else { return }
    let sameEnds =
      old.sourceNodeID == edge.sourceNodeID && old.sourceHandleID == edge.sourceHandleID
      && old.targetNodeID == edge.targetNodeID && old.targetHandleID == edge.targetHandleID
    guard !sameEnds else { return perform(.replaceEdge(slot: slot, edge: edge, ends: ends[Int(slot)]), into: &log) }
    let oldEnds = ends[Int(slot)]
    let (end, fed) = try attachment(of: edge, replacing: slot, issues: [])
    if let fed { feedParameter(of: end.target, signature: fed, log: &log) }
    perform(.replaceEdge(slot: slot, edge: edge, ends: end), into: &log)
    releaseParameterInput(of: oldEnds.target, port: oldEnds.targetPort, log: &log)
  }

  // MARK: - Checks

  /// Resolves the node's spec and checks its declared handles (`NodeSpecRule`).
  ///
  /// - Returns: the signature, or `nil` if the spec did not resolve (problems go to `issues`),
  ///   and the catalog's payload for the spec.
  func resolve(_ node: FlowNode, into issues: inout [GraphIssue]) -> (NodeSignature?, (any Sendable)?) {
    let (resolution, payload) = catalog.resolveWithPayload(node.data)
    // The common case: the spec resolved and the node declares no handles to check.
    if case .resolved(let signature) = resolution, node.handles == nil { return (signature, payload) }
    var context = ValidationContext(document: FlowDocument(), resolutions: [])
    let signature = NodeSpecRule.check(node, resolution, in: &context)
    issues += context.issues
    return (signature, payload)
  }

  /// Where `edge` would attach, after checking its endpoints, its input and acyclicity, and the
  /// signature its target needs first when the edge feeds one of its params not fed yet.
  ///
  /// On success the topological order already respects the edge (inserting it is then O(1));
  /// on failure nothing changed.
  ///
  /// - Parameters:
  ///   - replacing: the slot of the edge being rewired (left out of the checks), or -1.
  ///   - issues: problems found so far; thrown with the rest.
  private mutating func attachment(
    of edge: FlowEdge, replacing: Int32,
    issues: [GraphIssue]
  ) throws(GraphValidationError) -> (EdgeEnds, fed: NodeSignature?) {
    var issues = issues
    let source = nodeSlot(edge.sourceNodeID)
    let target = nodeSlot(edge.targetNodeID)
    if source == nil {
      issues.append(
        GraphIssue(
          .missingNode, "edge '\(edge.id)' starts at node '\(edge.sourceNodeID)', which does not exist",
          nodeIDs: [edge.sourceNodeID], edgeID: edge.id, handleID: edge.sourceHandleID))
    }
    if target == nil {
      issues.append(
        GraphIssue(
          .missingNode, "edge '\(edge.id)' ends at node '\(edge.targetNodeID)', which does not exist",
          nodeIDs: [edge.targetNodeID], edgeID: edge.id, handleID: edge.targetHandleID))
    }
    guard let source, let target else { throw GraphValidationError(issues: issues) }
    let ports: (source: Int32, target: Int32)
    let fed = signature(of: target, feeding: edge.targetHandleID)
    let targetSignature = fed ?? signatures[Int(target)]
    switch EdgeEndpointRule.resolve(edge, sourceSignature: signatures[Int(source)], targetSignature: targetSignature) {
    case .failure(let failure): throw GraphValidationError(issues: issues + failure.issues)
    case .success(let resolved): ports = resolved
    }
    // A param input about to be added has no edge yet.
    let occupant = fed == nil ? lists.input(of: target, port: ports.target) : -1
    if occupant >= 0 && occupant != replacing {
      let input = targetSignature.inputs[Int(ports.target)].name
      issues.append(
        GraphIssue(
          .inputAlreadyConnected,
          "input '\(input)' of node '\(edge.targetNodeID)' already has edge '\(edgeIDs[Int(occupant)])'; edge '\(edge.id)' cannot connect to it (an input takes one)",
          nodeIDs: [edge.targetNodeID], edgeID: edge.id, handleID: input))
    }
    guard issues.isEmpty else { throw GraphValidationError(issues: issues) }
    if let cycle = order.insertEdge(from: source, to: target, in: adjacency(excluding: replacing)) {
      let ids = cycle.map { nodes[Int($0)]!.id }
      throw GraphValidationError(
        GraphIssue(
          .cycle,
          "edge '\(edge.id)' would close a cycle: \((ids + [ids[0]]).joined(separator: " → "))",
          nodeIDs: ids, edgeID: edge.id))
    }
    return (EdgeEnds(source: source, sourcePort: ports.source, target: target, targetPort: ports.target), fed)
  }
}
