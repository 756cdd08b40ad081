/// One primitive step of a store mutation, already validated.
///
/// `StoreState.apply(_:)` performs a step and returns its inverse, which undoes it exactly
/// (slots included). A mutation is a sequence of steps; undo applies the inverses in reverse,
/// redo the steps again, and a failed batch rolls back with its inverses, so no one ever
/// copies the whole state. Each step yields one change item.
enum StoreStep: Sendable {
  /// Puts `node` into `slot`, either the next new slot (`slot == nodes.count`) or a tombstone
  /// being revived. The node starts without edges.
  case insertNode(slot: Int32, node: FlowNode, signature: NodeSignature)
  /// Turns the node in `slot`, which has no edges left, into a tombstone.
  case deleteNode(slot: Int32)
  /// Replaces the node in `slot` by `node` with the same id. `ports` gives the re-resolved
  /// ports of the node's edges when its spec or handles changed (empty otherwise).
  case replaceNode(slot: Int32, node: FlowNode, signature: NodeSignature, ports: [EdgePorts])
  /// Puts `edge` into `slot` (new or a tombstone) between `ends`; the edge keeps the graph acyclic
  /// and the target port is free.
  case insertEdge(slot: Int32, edge: FlowEdge, ends: StoreState.EdgeEnds)
  /// Turns the edge in `slot` into a tombstone.
  case deleteEdge(slot: Int32)
  /// Replaces the edge in `slot` by `edge` with the same id, moving it to `ends` if they differ.
  case replaceEdge(slot: Int32, edge: FlowEdge, ends: StoreState.EdgeEnds)
  /// A definition edit in bulk: the same inner nodes of many instances take new specs with the
  /// same signatures (one `.subgraphReplaced` item).
  case replaceInlined(InlinedReplacement)

  /// The ports an edge resolves to after its node's signature changed.
  struct EdgePorts: Sendable, Hashable {
    var edge: Int32
    var sourcePort: Int32
    var targetPort: Int32
  }
}

/// What one mutation did: its steps, their inverses and the change items, in order.
struct StoreLog: Sendable {
  var forward: [StoreStep] = []
  var inverse: [StoreStep] = []
  var items: [FlowStoreChange.Item] = []
  /// What was resolved for the items, by item index (see `ChangeResolutions`).
  var resolutions = ChangeResolutions()
  /// The node slots the steps touched (for the invariant check after the mutation).
  var touchedNodes: [Int32] = []
}

extension StoreState {
  /// Applies `operation` and records it, its inverse and its change item in `log`.
  mutating func perform(_ operation: consuming StoreStep, into log: inout StoreLog) {
    // A node some of whose params edges feed: its item carries that signature (engines resolve
    // the node's spec alone, without the fed params).
    var fedSignature: NodeSignature?
    switch operation {
    case .insertNode(_, _, let signature), .replaceNode(_, _, let signature, _):
      if signature.feedsParameters { fedSignature = signature }
    default: break
    }
    let (inverse, item) = apply(operation)
    touchedNodes(of: operation, inverse: inverse, into: &log.touchedNodes)
    log.forward.append(operation)  // moved, not copied
    if let item {
      // The edge an item removes or replaces is the one its inverse puts back (matched apart,
      // so that no step is copied into a tuple).
      if case .edge(let change) = item {
        switch change {
        case .remove:
          if case .insertEdge(_, let old, _) = inverse { log.resolutions.previousEdges[log.items.count] = old }
        case .replace:
          if case .replaceEdge(_, let old, _) = inverse { log.resolutions.previousEdges[log.items.count] = old }
        default: break
        }
      }
      if let fedSignature { log.resolutions.signatures[log.items.count] = fedSignature }
      log.items.append(item)
    }
    log.inverse.append(inverse)
  }

  /// Undoes every step of `log`, last first. The graph is then what it was before the first
  /// step (the topological order may differ, but stays valid).
  mutating func rollBack(_ log: StoreLog) {
    for operation in log.inverse.reversed() { _ = apply(operation) }
  }

  /// Applies the steps, in order, recording them in a fresh log (redo, and undo of inverses).
  mutating func replay(_ operations: some Sequence<StoreStep>) -> StoreLog {
    var log = StoreLog()
    for operation in operations { perform(operation, into: &log) }
    return log
  }

  /// Performs one step.
  ///
  /// - Precondition: the step is valid for the current state (the mutation checked it, or it is
  ///   the inverse or replay of a step that was); a violation traps.
  /// - Returns: the inverse step, and the change item (`nil` only for a replacement by an
  ///   identical value).
  /// - Complexity: O(1) amortized for nodes; O(degree) for edges, plus the topological order's
  ///   affected region when an edge is inserted.
  mutating func apply(_ operation: StoreStep) -> (inverse: StoreStep, item: FlowStoreChange.Item?) {
    switch operation {
    case .insertNode(let slot, let node, let signature):
      return insertNodeStep(slot: slot, node: node, signature: signature)
    case .deleteNode(let slot): return deleteNodeStep(slot: slot)
    case .replaceNode(let slot, let node, let signature, let ports):
      return replaceNodeStep(slot: slot, node: node, signature: signature, ports: ports)
    case .insertEdge(let slot, let edge, let end): return insertEdgeStep(slot: slot, edge: edge, ends: end)
    case .deleteEdge(let slot): return deleteEdgeStep(slot: slot)
    case .replaceEdge(let slot, let edge, let end): return replaceEdgeStep(slot: slot, edge: edge, ends: end)
    case .replaceInlined(let replacement): return replaceInlinedStep(replacement)
    }
  }

  /// `apply(_:)` of `.insertNode`.
  private mutating func insertNodeStep(slot: Int32, node: FlowNode, signature: NodeSignature)
    -> (inverse: StoreStep, item: FlowStoreChange.Item?)
  {
    let index = Int(slot)
    if index == nodes.count {
      nodes.append(node)
      signatures.append(signature)
      lists.appendNode(inputCount: signature.inputs.count)
      order.appendNode()
    } else {
      precondition(nodes[index] == nil, "Internal inconsistency: inserting node '\(node.id)' into live slot \(slot)")
      nodes[index] = node
      stamps.reset(index)
      signatures[index] = signature
      lists.setInputCount(of: slot, to: signature.inputs.count)
    }
    let indexed = Self.index(slot, in: &nodeIndex, nodes: nodes)
    precondition(indexed, "Internal inconsistency: node '\(node.id)' twice")
    nodeCount += 1
    return (.deleteNode(slot: slot), .node(.add(node)))
  }

  /// `apply(_:)` of `.deleteNode`.
  private mutating func deleteNodeStep(slot: Int32)
    -> (inverse: StoreStep, item: FlowStoreChange.Item?)
  {
    let index = Int(slot)
    guard let node = nodes[index] else {
      preconditionFailure("Internal inconsistency: deleting empty node slot \(slot)")
    }
    precondition(
      lists.outputs(of: slot).isEmpty && lists.inputs(of: slot).allSatisfy { $0 < 0 },
      "Internal inconsistency: deleting node '\(node.id)', which still has edges")
    let signature = signatures[index]
    Self.unindex(node.id, in: &nodeIndex, nodes: nodes)
    nodes[index] = nil
    stamps.reset(index)
    signatures[index] = NodeSignature()
    lists.setInputCount(of: slot, to: 0)
    nodeCount -= 1
    return (.insertNode(slot: slot, node: node, signature: signature), .node(.remove(id: node.id)))
  }

  /// `apply(_:)` of `.replaceNode`.
  private mutating func replaceNodeStep(
    slot: Int32, node: FlowNode, signature: NodeSignature, ports: [StoreStep.EdgePorts]
  )
    -> (inverse: StoreStep, item: FlowStoreChange.Item?)
  {
    let index = Int(slot)
    guard let old = nodes[index], old.id == node.id else {
      preconditionFailure("Internal inconsistency: replacing node slot \(slot) by '\(node.id)'")
    }
    let oldSignature = signatures[index]
    var oldPorts: [StoreStep.EdgePorts] = []
    if !ports.isEmpty {
      oldPorts.reserveCapacity(ports.count)
      for port in ports {
        let end = ends[Int(port.edge)]
        oldPorts.append(.init(edge: port.edge, sourcePort: end.sourcePort, targetPort: end.targetPort))
        ends[Int(port.edge)].sourcePort = port.sourcePort
        ends[Int(port.edge)].targetPort = port.targetPort
      }
    }
    if signature.inputs.count != oldSignature.inputs.count || !ports.isEmpty {
      let connected = lists.inputs(of: slot).filter { $0 >= 0 }
      lists.setInputCount(of: slot, to: signature.inputs.count)
      for edge in connected {
        let port = ends[Int(edge)].targetPort
        precondition(
          lists.input(of: slot, port: port) < 0,
          "Internal inconsistency: two edges into \(node.id).\(signature.inputs[Int(port)].name)")
        lists.setInput(of: slot, port: port, to: edge)
      }
    }
    nodes[index] = node
    stamps.reset(index)
    signatures[index] = signature
    // The same node with other ports (a param an edge feeds, or no longer) is a replacement too.
    let change = Self.change(from: old, to: node) ?? (signature != oldSignature ? .replace(node) : nil)
    return (.replaceNode(slot: slot, node: old, signature: oldSignature, ports: oldPorts), change.map { .node($0) })
  }

  /// `apply(_:)` of `.insertEdge`.
  private mutating func insertEdgeStep(slot: Int32, edge: FlowEdge, ends end: EdgeEnds)
    -> (inverse: StoreStep, item: FlowStoreChange.Item?)
  {
    precondition(
      Int(slot) == ends.count || ends[Int(slot)].source < 0,
      "Internal inconsistency: inserting edge '\(edge.id)' into live slot \(slot)")
    storeEdge(edge, at: slot, ends: end)
    let indexed = Self.index(slot, in: &edgeIndex, edgeIDs: edgeIDs)
    precondition(indexed, "Internal inconsistency: edge '\(edge.id)' twice")
    connect(slot, end)
    edgeCount += 1
    return (.deleteEdge(slot: slot), .edge(.add(edge)))
  }

  /// `apply(_:)` of `.deleteEdge`.
  private mutating func deleteEdgeStep(slot: Int32)
    -> (inverse: StoreStep, item: FlowStoreChange.Item?)
  {
    guard let edge = edge(at: slot) else {
      preconditionFailure("Internal inconsistency: deleting empty edge slot \(slot)")
    }
    let end = ends[Int(slot)]
    disconnect(slot, end)
    Self.unindex(edge.id, in: &edgeIndex, edgeIDs: edgeIDs)
    clearEdge(at: slot)
    edgeCount -= 1
    return (.insertEdge(slot: slot, edge: edge, ends: end), .edge(.remove(id: edge.id)))
  }

  /// `apply(_:)` of `.replaceEdge`.
  private mutating func replaceEdgeStep(slot: Int32, edge: FlowEdge, ends end: EdgeEnds)
    -> (inverse: StoreStep, item: FlowStoreChange.Item?)
  {
    guard let old = self.edge(at: slot), old.id == edge.id else {
      preconditionFailure("Internal inconsistency: replacing edge slot \(slot) by '\(edge.id)'")
    }
    let oldEnd = ends[Int(slot)]
    if oldEnd != end { disconnect(slot, oldEnd) }
    restoreEdge(edge, at: slot, ends: end)
    if oldEnd != end { connect(slot, end) }
    return (.replaceEdge(slot: slot, edge: old, ends: oldEnd), Self.change(from: old, to: edge).map { .edge($0) })
  }

  /// Indexes node `slot` under its id; `false` if the id was indexed already.
  static func index(_ slot: Int32, in table: inout IDTable, nodes: [FlowNode?]) -> Bool {
    guard let id = nodes[Int(slot)]?.id, table.slot(of: id, idOf: { nodes[Int($0)]?.id }) == nil else { return false }
    table.insert(slot) { nodes[Int($0)]?.id }
    return true
  }

  /// Unindexes node `id` (its slot still holding it).
  static func unindex(_ id: String, in table: inout IDTable, nodes: [FlowNode?]) {
    let removed = table.remove(id) { nodes[Int($0)]?.id }
    precondition(removed != nil, "Internal inconsistency: node '\(id)' not indexed")
  }

  /// Indexes edge `slot` under its id; `false` if the id was indexed already.
  static func index(_ slot: Int32, in table: inout IDTable, edgeIDs: [String]) -> Bool {
    let id = edgeIDs[Int(slot)]
    guard table.slot(of: id, idOf: { edgeIDs[Int($0)] }) == nil else { return false }
    table.insert(slot) { edgeIDs[Int($0)] }
    return true
  }

  /// Unindexes edge `id` (its slot still holding it).
  static func unindex(_ id: String, in table: inout IDTable, edgeIDs: [String]) {
    let removed = table.remove(id) { edgeIDs[Int($0)] }
    precondition(removed != nil, "Internal inconsistency: edge '\(id)' not indexed")
  }

  /// Attaches edge `slot` to the lists of its ends and makes the order respect it.
  private mutating func connect(_ slot: Int32, _ end: EdgeEnds) {
    let cycle = order.insertEdge(from: end.source, to: end.target, in: adjacency())
    precondition(cycle == nil, "Internal inconsistency: edge slot \(slot) closes a cycle through slots \(cycle ?? [])")
    precondition(
      lists.input(of: end.target, port: end.targetPort) < 0,
      "Internal inconsistency: edge slot \(slot) into a connected input")
    lists.setInput(of: end.target, port: end.targetPort, to: slot)
    lists.insertOutput(slot, of: end.source)
  }

  /// Detaches edge `slot` from the lists of its ends.
  private mutating func disconnect(_ slot: Int32, _ end: EdgeEnds) {
    precondition(
      lists.input(of: end.target, port: end.targetPort) == slot,
      "Internal inconsistency: edge slot \(slot) not attached")
    lists.setInput(of: end.target, port: end.targetPort, to: -1)
    lists.removeOutput(slot, of: end.source)
  }

  /// SwiftFlow's change for a node replaced by `new`: `.position`, `.dimensions` or `.select`
  /// when only that changed, `.replace` otherwise, `nil` when nothing did.
  static func change(from old: FlowNode, to new: FlowNode) -> NodeChange? {
    if old.data != new.data { return .replace(new) }  // the common case, without copying a node
    var rest = old
    rest.position = new.position
    rest.size = new.size
    rest.isSelected = new.isSelected
    guard rest == new else { return .replace(new) }
    let moved = old.position != new.position
    let resized = old.size != new.size
    let selected = old.isSelected != new.isSelected
    switch (moved, resized, selected) {
    case (false, false, false): return nil
    case (true, false, false): return .position(id: new.id, position: new.position)
    case (false, true, false): return .dimensions(id: new.id, size: new.size)
    case (false, false, true): return .select(id: new.id, isSelected: new.isSelected)
    default: return .replace(new)
    }
  }

  /// SwiftFlow's change for an edge replaced by `new`: `.select` when only the selection
  /// changed, `.replace` otherwise, `nil` when nothing did.
  static func change(from old: FlowEdge, to new: FlowEdge) -> EdgeChange? {
    if old == new { return nil }
    var selected = old
    selected.isSelected = new.isSelected
    return selected == new ? .select(id: new.id, isSelected: new.isSelected) : .replace(new)
  }

  /// Adds the node slots `operation` concerns to `touched`.
  private func touchedNodes(of operation: StoreStep, inverse: StoreStep, into touched: inout [Int32]) {
    #if FLOW_INTERNAL_CHECKS
    for step in [operation, inverse] {
      switch step {
      case .insertNode(let slot, _, _), .deleteNode(let slot): touched.append(slot)
      case .replaceNode(let slot, _, _, let ports):
        touched.append(slot)
        for port in ports where ends[Int(port.edge)].source >= 0 {
          touched += [ends[Int(port.edge)].source, ends[Int(port.edge)].target]
        }
      case .insertEdge(_, _, let end), .replaceEdge(_, _, let end): touched += [end.source, end.target]
      case .deleteEdge: break
      case .replaceInlined(let replacement): touched += replacement.slots
      }
    }
    #endif
  }
}
