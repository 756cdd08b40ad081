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
  /// Where the edit only changes the specs of inner nodes that are alike in every instance (a
  /// param, say), the change holds one `.subgraphReplaced` item for all of them, and so do its
  /// undo and redo.
  ///
  /// Setting one of the store's (or its imports') definitions to one equal to it (by value,
  /// as `updateNode` compares nodes) changes nothing: no revision, no undo step.
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
      if before.definitions[name] == nil, let index = after.imported.firstIndex(where: { $0.definitions[name] != nil })
      {
        // The same definition again changes nothing (no revision, no undo step).
        if after.imported[index].definitions[name] == definition { return nil }
        after.imported[index].definitions[name] = definition
      } else {
        if let current = before.definitions[name], current == definition { return nil }
        after.definitions[name] = definition
      }
      let sources =
        [SubgraphSource(origin: SubgraphSource.thisDocument, definitions: after.definitions)] + after.imported
        + catalog.subgraphSources
      after.library = try SubgraphLibrary(sources, catalog: catalog)
      // In slot (document) order, each with its slot: one id lookup per instance, and the
      // inlined nodes found from it by template offset.
      let instances = before.instances(using: name, in: [before.library, after.library])
      let affected = storage.state.inSlotOrder(
        instances, hints: &storage.instanceSlotHints, order: &storage.instanceOrderHints)
      if definition == nil, let first = affected.first {
        let user = instances[Int(first.index)]
        throw GraphValidationError(
          GraphIssue(
            .invalidSubgraph,
            "subgraph '\(name)' cannot be removed: node '\(user.id)' (\(user.kind)) uses it", nodeIDs: [user.id]))
      }
      var log = StoreLog()
      var change = DefinitionChange(old: before.library, new: after.library)
      if let bulk = storage.state.bulkReplacement(of: name, instances, affected, &change) {
        // Only shared inner nodes' specs change, alike everywhere: one step, one item.
        storage.state.perform(.replaceInlined(bulk.step), into: &log)
        log.resolutions.inlinedPayloads = bulk.payloads
        log.resolutions.payloadsShared = true
      } else {
        do throws(GraphValidationError) {
          for (slot, index) in affected {
            guard let instance = before.instances[instances[Int(index)].id] else { continue }
            try storage.state.reexpand(instance, at: slot, &change, log: &log)
          }
        } catch {
          storage.state.rollBack(log)
          throw error
        }
      }
      storage.subgraphs = after
      storage.state._checkInvariants(after: log)
      storage.undoStack.append(
        HistoryEntry(
          forward: log.forward, inverse: log.inverse,
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
  mutating func reexpand(
    from instance: FlowNode, to replacement: FlowNode, old: SubgraphLibrary, new: SubgraphLibrary,
    log: inout StoreLog
  ) throws(GraphValidationError) {
    var change = DefinitionChange(old: old, new: new)
    guard let before = change.oldTemplates.template(instance.data.kind),
      let after = change.newTemplates.template(replacement.data.kind)
    else { return }
    let oldNodes = before.nodes.indices.map { before.node($0, of: instance, id: instance.id) }
    let newNodes = after.nodes.indices.map { after.node($0, of: replacement, id: instance.id) }
    let oldEdges = before.edges.indices.map { before.edge($0, id: instance.id) }
    let newEdges = after.edges.indices.map { after.edge($0, id: instance.id) }
    let moved = try movePorts(instance, replacement, old: old, new: new, log: &log)
    let newEdgesByID = Dictionary(newEdges.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let newNodeIDs = Set(newNodes.map(\.id))
    let oldEdgesByID = Dictionary(oldEdges.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    for edge in oldEdges where newEdgesByID[edge.id] != edge { try removeEdge(id: edge.id, log: &log) }
    for node in oldNodes where !newNodeIDs.contains(node.id) { try removeNode(id: node.id, log: &log) }
    for node in newNodes { try place(node, isInstance: node.id == instance.id, log: &log) }
    for edge in newEdges where oldEdgesByID[edge.id] != edge { try addEdge(edge, log: &log) }
    for edge in moved { try addEdge(edge, log: &log) }
  }

  /// `reexpand` for a definition change: the same instance node before and after, so only
  /// what differs between the two templates of its kind is touched (found once per kind).
  /// `slot` is the instance node's slot: the inlined nodes were laid out by the old template,
  /// instance node last, so an inner node is looked for at `slot` minus its offset from the
  /// end of the template (and checked by id) before its id is looked up.
  mutating func reexpand(
    _ instance: FlowNode, at slot: Int32, _ change: inout DefinitionChange,
    log: inout StoreLog
  ) throws(GraphValidationError) {
    guard let diff = change.diff(instance.data.kind) else { return }
    let id = instance.id
    // Where every input port keeps its name and `input` node, no edge from outside moves.
    let moved = diff.portsStay ? [] : try movePorts(instance, instance, old: change.old, new: change.new, log: &log)
    for index in diff.removedEdges { try removeEdge(id: diff.before.edge(index, id: id).id, log: &log) }
    for index in diff.removedNodes { try removeNode(id: id + diff.before.nodes[index].id, log: &log) }
    let base = Int(slot) - (diff.before.nodes.count - 1)
    for index in diff.placedNodes {
      let node = diff.after.node(index, of: instance, id: id)
      var known: Int32?
      if let offset = diff.oldIndex[index], slot >= 0, case let guess = base + offset, guess >= 0, guess < nodes.count,
        nodes[guess]?.id == node.id
      {
        known = Int32(guess)
      }
      // An inner node whose spec is the same in every instance is resolved once for all.
      let presolved = diff.isShared[index] ? diff.resolved(index, of: node, catalog: catalog) : nil
      if presolved != nil { log.resolutions.payloadsShared = true }
      try place(
        node, isInstance: index == diff.after.nodes.count - 1, presolved: presolved, knownSlot: known, log: &log)
    }
    for index in diff.addedEdges { try addEdge(diff.after.edge(index, id: id), log: &log) }
    for edge in moved { try addEdge(edge, log: &log) }
  }

  /// Adds `node`, or updates the node of its id where it differs (an inlined node keeping its geometry).
  private mutating func place(
    _ node: FlowNode, isInstance: Bool, presolved: (signature: NodeSignature, payload: (any Sendable)?)? = nil,
    knownSlot: Int32? = nil, log: inout StoreLog
  ) throws(GraphValidationError) {
    guard let slot = knownSlot ?? nodeSlot(node.id), let current = nodes[Int(slot)] else {
      return try addNode(node, log: &log)
    }
    var next = node
    if !isInstance {
      next.position = current.position
      next.size = current.size
      next.isSelected = current.isSelected
    }
    // `updateNode` compares the two (and changes nothing where they are the same).
    try updateNode(next, presolved: presolved, knownSlot: slot, log: &log)
  }

  /// Removes the edges from outside into `instance`'s ports whose `input` node changes, and
  /// returns them retargeted (to add once the new inlined nodes are in).
  private mutating func movePorts(
    _ instance: FlowNode, _ replacement: FlowNode, old: SubgraphLibrary, new: SubgraphLibrary,
    log: inout StoreLog
  ) throws(GraphValidationError) -> [FlowEdge] {
    let prefix = instance.id + "/"
    var outside: [(edge: FlowEdge, port: String)] = []
    if let oldSubgraph = old[instance.data.kind] {
      for port in oldSubgraph.inputs {
        for edge in incomingEdges(of: prefix + port.nodeID) where !edge.id.hasPrefix(prefix) {
          outside.append((edge, port.name))
        }
      }
    }
    let newSubgraph = new[replacement.data.kind]
    var moved: [FlowEdge] = []
    for (edge, portName) in outside {
      guard let port = newSubgraph?.input(named: portName) else {
        throw GraphValidationError(
          GraphIssue(
            .unknownHandle,
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
    return moved
  }
}

extension StoreState {
  /// For the undo or redo of a definition edit: resolves each distinct spec among the nodes
  /// the replay added or replaced once, and hands that one payload to all of them (as the edit
  /// itself did), so that an engine configures it once for kinds that share configurations.
  mutating func shareResolutions(_ log: inout StoreLog) {
    var resolved: [NodeSpec: (any Sendable)?] = [:]
    var last: (spec: NodeSpec, payload: (any Sendable)?)?
    for (index, item) in log.items.enumerated() {
      if case .subgraphReplaced(let replacement) = item {
        log.resolutions.inlinedPayloads = replacement.innerNodes.map { node in
          node.handles == nil ? catalog.resolveWithPayload(node.data).payload : nil
        }
        continue
      }
      guard case .node(let change) = item else { continue }
      let node: FlowNode
      switch change {
      case .add(let added): node = added
      case .replace(let replaced): node = replaced
      default: continue
      }
      guard node.handles == nil else { continue }
      let payload: (any Sendable)?
      if let last, last.spec == node.data {
        payload = last.payload
      } else if let known = resolved[node.data] {
        payload = known
      } else {
        payload = catalog.resolveWithPayload(node.data).payload
        resolved[node.data] = payload
      }
      last = (node.data, payload)
      log.resolutions.payloads[index] = payload
    }
    log.resolutions.payloadsShared = true
  }
}

extension FlowStore.Storage {
  /// Runs a mutation that may change the instances as written, and commits it with the
  /// subgraph state before and after in its undo entry.
  mutating func commitWithSubgraphs(
    _ operation: RecordedOperation,
    _ body: (inout StoreState, inout StoreSubgraphs, inout StoreLog) throws(GraphValidationError) -> Void
  )
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
    undoStack.append(
      FlowStore.HistoryEntry(
        forward: log.forward, inverse: log.inverse,
        subgraphs: SubgraphHistory(before: before, after: after, name: nil)))
    redoStack.removeAll()
    compactIfNeeded()
    return publish(log.items, resolutions: log.resolutions)
  }
}
