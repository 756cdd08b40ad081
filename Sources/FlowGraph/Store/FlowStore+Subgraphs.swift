extension FlowStore {
  /// The store's subgraph kinds (its definitions and imported ones), validated.
  public var subgraphLibrary: SubgraphLibrary { storage.withLock { $0.subgraphs.library } }

  /// The store's own definitions by name (what `export()` writes).
  public var subgraphs: [String: SubgraphDefinition] { storage.withLock { $0.subgraphs.definitions } }

  /// Adds, replaces (or, with `nil`, removes) the definition `name` (an imported one is
  /// replaced in the store's copy of its import), re-expanding every
  /// instance that uses it as a diff: only inlined nodes whose spec or wiring changed are
  /// replaced (and rerun, with their descendants, in an engine), and an inner node that is
  /// the same before and after is left alone.
  ///
  /// One revision, one undo step (undo restores the definition and the inlined nodes); the
  /// change lists the inlined nodes' changes and names the definition in `subgraphsChanged`.
  ///
  /// - Throws: the definition's problems (naming it and the inner id), a recursion, a name
  ///   clash, a removed definition still used, or an instance whose connections the new ports
  ///   no longer accept; the store is then unchanged.
  public func setSubgraph(_ name: String, _ definition: SubgraphDefinition?) throws(GraphValidationError) {
    let call = try storage.withLock { (storage) throws(GraphValidationError) -> ChangeDelivery.CallID? in
      let before = storage.subgraphs
      var after = before
      // An imported definition is edited where it came from (the store's copy of the import;
      // `export()` writes only the document's own definitions).
      if before.definitions[name] == nil, let index = after.imported.firstIndex(where: { $0.definitions[name] != nil }) {
        after.imported[index].definitions[name] = definition
      } else {
        after.definitions[name] = definition
      }
      let sources = [SubgraphSource(origin: SubgraphSource.thisDocument, definitions: after.definitions)] + after.imported
        + catalog.subgraphSources
      after.library = try SubgraphLibrary(sources, catalog: catalog)
      let affected = before.instances(using: name, in: [before.library, after.library])
      if definition == nil, let user = affected.first {
        throw GraphValidationError(GraphIssue(.invalidSubgraph,
          "subgraph '\(name)' cannot be removed: node '\(user.id)' (\(user.data.kind)) uses it", nodeIDs: [user.id]))
      }
      var log = StoreLog()
      do throws(GraphValidationError) {
        for instance in affected {
          try storage.state.reexpand(from: instance, to: instance, old: before.library, new: after.library, log: &log)
        }
      } catch {
        storage.state.rollBack(log)
        throw error
      }
      storage.subgraphs = after
      storage.state._checkInvariants(after: log)
      storage.undoStack.append(HistoryEntry(forward: log.forward, inverse: log.inverse,
                                            subgraphs: SubgraphHistory(before: before, after: after, name: name)))
      storage.redoStack.removeAll()
      storage.compactIfNeeded()
      var resolutions = log.resolutions
      resolutions.subgraphsChanged = [name]
      return storage.publish(log.items, resolutions: resolutions)
    }
    if let call { deliver(call) }
  }
}

/// The subgraph state before and after an undoable definition change.
struct SubgraphHistory: Sendable {
  var before: StoreSubgraphs
  var after: StoreSubgraphs
  /// The definition changed (`nil`: only instances changed).
  var name: String?
}

extension StoreState {
  /// Replaces the inlined nodes and edges of top-level instance `instance` (expanded with
  /// `old`) by those of `replacement` expanded with `new`, touching only what differs; edges
  /// from outside into its ports follow their ports. Inlined nodes keep their geometry; the
  /// instance node takes `replacement`'s.
  mutating func reexpand(from instance: FlowNode, to replacement: FlowNode, old: SubgraphLibrary, new: SubgraphLibrary,
                         log: inout StoreLog) throws(GraphValidationError) {
    let before = SubgraphExpander.expansion(of: instance, library: old)
    let after = SubgraphExpander.expansion(of: replacement, library: new)
    let prefix = instance.id + "/"
    // Edges from outside into the instance's ports, by port name.
    var outside: [(edge: FlowEdge, port: String)] = []
    if let oldSubgraph = old[instance.data.kind] {
      for port in oldSubgraph.inputs {
        for edge in incomingEdges(of: prefix + port.nodeID) where !edge.id.hasPrefix(prefix) { outside.append((edge, port.name)) }
      }
    }
    let newSubgraph = new[replacement.data.kind]
    var moved: [FlowEdge] = []
    for (edge, portName) in outside {
      guard let port = newSubgraph?.inputs.first(where: { $0.name == portName }) else {
        throw GraphValidationError(GraphIssue(.unknownHandle,
          "the definition of '\(replacement.data.kind)' has no input '\(portName)', which edge '\(edge.id)' feeds on node '\(instance.id)'",
          nodeIDs: [instance.id], edgeID: edge.id, handleID: portName))
      }
      if edge.targetNodeID != prefix + port.nodeID {
        var next = edge
        next.targetNodeID = prefix + port.nodeID
        moved.append(next)
        try removeEdge(id: edge.id, log: &log)
      }
    }
    let oldEdges = Dictionary(before.edges.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let newEdges = Dictionary(after.edges.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let newNodes = Dictionary(after.nodes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    for edge in before.edges where newEdges[edge.id] != edge { try removeEdge(id: edge.id, log: &log) }
    for node in before.nodes where newNodes[node.id] == nil { try removeNode(id: node.id, log: &log) }
    for node in after.nodes {
      if let current = self.node(id: node.id) {
        var next = node
        if node.id != instance.id {
          next.position = current.position
          next.size = current.size
          next.isSelected = current.isSelected
        }
        if next != current { try updateNode(next, log: &log) }
      } else {
        try addNode(node, log: &log)
      }
    }
    for edge in after.edges where oldEdges[edge.id] != edge { try addEdge(edge, log: &log) }
    for edge in moved { try addEdge(edge, log: &log) }
  }
}

extension FlowStore.Storage {
  /// Runs a mutation that may change the instances as written, and commits it with the
  /// subgraph state before and after in its undo entry.
  mutating func commitWithSubgraphs(_ operation: RecordedOperation,
                                    _ body: (inout StoreState, inout StoreSubgraphs, inout StoreLog) throws(GraphValidationError) -> Void)
    throws(GraphValidationError) -> ChangeDelivery.CallID?
  {
    let before = subgraphs
    var after = before
    var log = StoreLog()
    do throws(GraphValidationError) {
      try body(&state, &after, &log)
    } catch {
      state.rollBack(log)
      record(operation, .rejected(error.description))
      throw error
    }
    state._checkInvariants(after: log)
    guard !log.items.isEmpty else { return nil }
    subgraphs = after
    undoStack.append(FlowStore.HistoryEntry(forward: log.forward, inverse: log.inverse,
                                            subgraphs: SubgraphHistory(before: before, after: after, name: nil)))
    redoStack.removeAll()
    compactIfNeeded()
    return publish(log.items, resolutions: log.resolutions)
  }
}
