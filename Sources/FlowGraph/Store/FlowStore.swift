import Synchronization

/// The headless counterpart of SwiftFlow's store: a graph of nodes and edges that only ever
/// holds a valid DAG, with change callbacks, batches and undo.
///
/// Every mutation is validated (Reference.md, "Validation"): a rejected one throws a `GraphValidationError`
/// naming the node, edge, handle or param concerned, and changes nothing and fires nothing —
/// never SwiftFlow's silent no-op. An accepted one bumps `revision` and produces one
/// `FlowStoreChange` with its items in the order they took effect.
///
/// ## Callbacks
/// `onNodesChange` / `onEdgesChange` are SwiftFlow-style single slots, called once per accepted
/// mutation, batch, undo or redo that has node (edge) changes; `load` fires neither.
/// `observe(_:)` adds observers that receive every `FlowStoreChange`, `load` included. No
/// handler is ever called while the store's lock is held, so handlers may read and mutate the
/// store.
///
/// Delivery order: each change is queued, inside the lock, in revision order, and handed to
/// the handlers outside the lock, one change at a time, in that order, exactly once. The
/// mutating call that queued a change delivers it before returning, waiting for the changes
/// queued before it; a change queued while another call is still delivering may instead be
/// taken on by that call, at most one such change per change of its own, so no call delivers
/// an unbounded share of other threads' work (`ChangeDelivery`). A delivered change is released
/// at once. For each change, observers come first, then `onNodesChange`, then
/// `onEdgesChange`. Hence:
/// - With a single thread (the usual case), the callbacks of a mutation have run when it
///   returns. A mutation made from inside a handler is delivered after that handler returns,
///   by the call that is delivering.
/// - With concurrent mutators, every handler still sees every change in strictly increasing
///   revision order, a mutation may return before its callbacks ran on another thread, and
///   every change has been delivered once all mutating calls returned.
/// - A handler must not wait for another thread's mutation of the same store (the other
///   thread may be waiting for the handler's change to be delivered).
///
/// ## Batches, undo and rollback
/// Every mutation is a sequence of primitive steps (`StoreStep`), each of which returns its
/// exact inverse. `batch(_:)` applies its mutations as they are called and, if the body throws,
/// applies the recorded inverses in reverse — never a copy of the graph, which may hold 100k
/// nodes. Undo and redo replay the same steps; removed nodes and edges keep their slots
/// (tombstones) until no history entry needs them, so undo restores insertion order exactly.
/// A batch body runs under the store's lock: it reads through its `Batch`, never the store
/// (the lock is not recursive and traps).
///
/// ## Guards and operation history
/// Hosts may veto operations with `StoreGuard`s: synchronous ones inside every operation
/// (a veto throws, changes nothing, fires nothing, is not undoable), async ones before each
/// operation submitted with `perform(_:)`, which applies them one at a time in submission order.
/// `operationHistory` keeps the latest applied, blocked and rejected operations (a ring).
///
/// - Complexity: lookups by id are O(1); per-node edge lists come from per-node indices;
///   adding an edge checks for cycles in time proportional to the smaller side of the affected
///   region of the topological order (`TopologicalOrder`: two-way search over gapped labels),
///   never a full re-sort.
public final class FlowStore: Sendable {
  package let catalog: any NodeCatalog
  let storage: Locked<Storage>

  /// A store holding `document`.
  ///
  /// - Parameters:
  ///   - catalog: the node kinds specs resolve against.
  ///   - document: the initial graph (empty by default); its viewport and extra keys are kept.
  /// - Throws: every problem `DocumentValidator` finds in `document`.
  ///
  /// A document with subgraphs (Reference.md, "Subgraphs") is held flattened: `nodes` and `edges` include the
  /// inlined nodes (`<instance>/<inner id>`), and `export()` folds them back.
  ///   - imported: definitions from other documents (a host's imports), besides the catalog's
  ///     own (`NodeCatalog.subgraphSources`).
  public init(
    catalog: some NodeCatalog, document: FlowDocument = FlowDocument(),
    imported: [SubgraphSource] = []
  ) throws(GraphValidationError) {
    let expanded = try ExpandedDocument(document, imported: imported, catalog: catalog)
    let (graph, payloads) = try DocumentValidator.validateKeepingPayloads(expanded.flat, catalog: catalog)
    self.catalog = catalog
    var storage = Storage(state: StoreState(graph, catalog: catalog, payloads: payloads))
    storage.subgraphs = StoreSubgraphs(expanded, imported: imported)
    self.storage = Locked(storage)
  }

  // MARK: - Reading

  /// 0 after `init`; one more per accepted mutation, batch, load, undo and redo.
  public var revision: Int { storage.withLock { $0.revision } }

  /// The nodes in insertion order (document order first).
  ///
  /// - Complexity: O(*n*).
  public var nodes: [FlowNode] {
    storage.withLock { storage in
      let nodes = storage.state.liveNodes
      return storage.subgraphs.instances.isEmpty ? nodes : nodes.map { storage.subgraphs.written($0) }
    }
  }

  /// The edges in insertion order (document order first).
  ///
  /// - Complexity: O(*m*).
  public var edges: [FlowEdge] { storage.withLock { $0.state.liveEdges } }

  /// The node with id `id`, if any.
  ///
  /// - Complexity: O(1).
  public func node(id: String) -> FlowNode? {
    storage.withLock { storage in storage.state.node(id: id).map { storage.subgraphs.written($0) } }
  }

  /// The edge with id `id`, if any.
  ///
  /// - Complexity: O(1).
  public func edge(id: String) -> FlowEdge? { storage.withLock { $0.state.edge(id: id) } }

  /// The edges into the node, in the order of its input ports (empty for an unknown id).
  ///
  /// - Complexity: O(inputs of the node).
  public func incomingEdges(of nodeID: String) -> [FlowEdge] {
    storage.withLock { storage in
      guard let instance = storage.subgraphs.instances[nodeID],
        let subgraph = storage.subgraphs.library[instance.data.kind]
      else {
        return storage.state.incomingEdges(of: nodeID)
      }
      // Edges into an instance's ports, as written (the store holds them into its input nodes).
      return subgraph.inputs.flatMap { port in
        storage.state.incomingEdges(of: nodeID + "/" + port.nodeID).filter { !$0.id.hasPrefix(nodeID + "/") }.map {
          edge in
          var written = edge
          written.targetNodeID = nodeID
          written.targetHandleID = port.name
          return written
        }
      }
    }
  }

  /// The edges out of the node, in insertion order (empty for an unknown id).
  ///
  /// - Complexity: O(out-degree of the node).
  public func outgoingEdges(of nodeID: String) -> [FlowEdge] { storage.withLock { $0.state.outgoingEdges(of: nodeID) } }

  /// The graph as SwiftFlow's `export()` writes it: without transient nodes and the edges
  /// touching them, with `isSelected` false everywhere; viewport and extra keys kept.
  public func export() -> FlowDocument { storage.withLock { $0.subgraphs.folded($0.state.exported()) } }

  /// The canvas viewport, saved by `export()`. Setting it is no graph change: no revision, no
  /// callback.
  public var viewport: Viewport {
    get { storage.withLock { $0.state.viewport } }
    set { storage.withLock { $0.state.viewport = newValue } }
  }

  // MARK: - Callbacks

  /// Called with the node changes of each accepted mutation, batch, undo or redo that has any.
  public var onNodesChange: (@Sendable ([NodeChange]) -> Void)? {
    get { storage.withLock { $0.onNodesChange } }
    set {
      let old = storage.withLock { storage in
        defer { storage.onNodesChange = newValue }
        return storage.onNodesChange
      }
      withExtendedLifetime(old) {}  // released outside the lock: its captures' deinits may call the store
    }
  }

  /// Called with the edge changes of each accepted mutation, batch, undo or redo that has any.
  public var onEdgesChange: (@Sendable ([EdgeChange]) -> Void)? {
    get { storage.withLock { $0.onEdgesChange } }
    set {
      let old = storage.withLock { storage in
        defer { storage.onEdgesChange = newValue }
        return storage.onEdgesChange
      }
      withExtendedLifetime(old) {}  // released outside the lock: its captures' deinits may call the store
    }
  }

  // MARK: - Mutations

  /// Adds a node (without edges).
  ///
  /// - Throws: a duplicate id, an unknown kind, invalid params, or handles that disagree with
  ///   the kind; nothing changes.
  public func addNode(_ node: FlowNode) throws(GraphValidationError) {
    try mutate(.addNode(node)) { (state, log) throws(GraphValidationError) in
      try state.addNode(node, log: &log)
    } subgraphs: { (state, subgraphs, log) throws(GraphValidationError) in
      try state.addNode(node, subgraphs: &subgraphs, log: &log)
    }
  }

  /// Removes a node and its edges; the change lists the edge removals before the node's.
  ///
  /// - Throws: `.unknownNode` if there is no such node.
  public func removeNode(id: String) throws(GraphValidationError) {
    try mutate(.removeNode(id: id)) { (state, log) throws(GraphValidationError) in
      try state.removeNode(id: id, log: &log)
    } subgraphs: { (state, subgraphs, log) throws(GraphValidationError) in
      try state.removeNode(id: id, subgraphs: &subgraphs, log: &log)
    }
  }

  /// Replaces the node with `node.id`. Emits `.position`, `.dimensions` or `.select` when only
  /// that changed, `.replace` otherwise, nothing when nothing changed.
  ///
  /// - Throws: `.unknownNode`; for a new spec or new handles, the spec's problems and each
  ///   existing edge of the node that would no longer resolve (naming the edge).
  public func updateNode(_ node: FlowNode) throws(GraphValidationError) {
    try mutate(.updateNode(node)) { (state, log) throws(GraphValidationError) in
      try state.updateNode(node, log: &log)
    } subgraphs: { (state, subgraphs, log) throws(GraphValidationError) in
      try state.updateNode(node, subgraphs: &subgraphs, log: &log)
    }
  }

  /// Adds an edge from an output port to a free input port.
  ///
  /// - Throws: a duplicate id, a missing node, an unknown, ambiguous or wrong-direction handle,
  ///   incompatible port types, an input already connected (naming its edge), or a cycle
  ///   (`"edge 'e' would close a cycle: a → b → a"`, self-loops included).
  /// - Complexity: O(affected region of the topological order); never a full re-sort.
  public func addEdge(_ edge: FlowEdge) throws(GraphValidationError) {
    try mutate(.addEdge(edge)) { (state, log) throws(GraphValidationError) in
      try state.addEdge(edge, log: &log)
    } subgraphs: { (state, subgraphs, log) throws(GraphValidationError) in
      try state.addEdge(edge, subgraphs: subgraphs, log: &log)
    }
  }

  /// Removes an edge.
  ///
  /// - Throws: `.unknownEdge` if there is no such edge.
  public func removeEdge(id: String) throws(GraphValidationError) {
    try mutate(.removeEdge(id: id)) { (state, log) throws(GraphValidationError) in
      try state.removeEdge(id: id, log: &log)
    }
  }

  /// Replaces the edge with `edge.id`. New endpoints are checked as remove + add, atomically;
  /// emits `.replace`, or `.select` when only the selection changed.
  ///
  /// - Throws: `.unknownEdge`, or what `addEdge(_:)` would throw for the new endpoints.
  public func updateEdge(_ edge: FlowEdge) throws(GraphValidationError) {
    try mutate(.updateEdge(edge)) { (state, log) throws(GraphValidationError) in
      try state.updateEdge(edge, log: &log)
    } subgraphs: { (state, subgraphs, log) throws(GraphValidationError) in
      try state.updateEdge(edge, subgraphs: subgraphs, log: &log)
    }
  }

  /// Replaces the whole graph by `document`, clearing undo history.
  ///
  /// Emits a `FlowStoreChange` with `reloadedDocument` set and no items to observers;
  /// `onNodesChange` and `onEdgesChange` do not fire (SwiftFlow's `load` fires none).
  ///
  /// - Throws: every problem `DocumentValidator` finds, or a guard's veto; the store is then
  ///   unchanged.
  /// - Complexity: O(*n* + *m* log *m*), validation and indexing done outside the lock.
  ///   - imported: the definitions of the documents `document` imports (Reference.md, "Subgraphs"), read by the
  ///     host; `nil` keeps those the store was given before.
  public func load(_ document: FlowDocument, imported: [SubgraphSource]? = nil) throws(GraphValidationError) {
    let operation = StoreOperation.load(document)
    let graph: ResolvedGraph
    let payloads: [(any Sendable)?]
    let subgraphs: StoreSubgraphs
    do throws(GraphValidationError) {
      let imported = imported ?? storage.withLock { $0.subgraphs.imported }
      let expanded = try ExpandedDocument(document, imported: imported, catalog: catalog)
      subgraphs = StoreSubgraphs(expanded, imported: imported)
      (graph, payloads) = try DocumentValidator.validateKeepingPayloads(expanded.flat, catalog: catalog)
    } catch {
      storage.withLock { $0.record(operation, .rejected(error.description)) }
      throw error
    }
    var state = StoreState(graph, catalog: catalog)
    let call = try storage.withLock { (storage) throws(GraphValidationError) -> ChangeDelivery.CallID? in
      try storage.checkGuards(operation)
      swap(&storage.state, &state)
      storage.subgraphs = subgraphs
      storage.undoStack.removeAll()
      storage.redoStack.removeAll()
      storage.compactionThreshold = max(storage.compactionMinimum, storage.state.nodeCount + storage.state.edgeCount)
      storage.revision += 1
      storage.record(operation, .applied)
      var change = FlowStoreChange(revision: storage.revision, reloadedDocument: document, items: [])
      change.resolutions.reloaded = ChangeResolutions.Reload(graph: graph, payloads: payloads)
      return storage.enqueue(change)
    }
    withExtendedLifetime(state) {}  // the old graph is freed here, outside the lock
    if let call { deliver(call) }
  }

  /// Runs one mutation under the lock — the synchronous guards, then the validated change —
  /// commits it, records it in the operation history, then delivers its change.
  ///
  /// - Parameter subgraphs: the mutation for a store that holds subgraphs (instances are
  ///   inlined), run instead of `body` then; it may change the instances as written, and undo
  ///   restores them.
  func mutate(
    _ operation: RecordedOperation, _ body: (inout StoreState, inout StoreLog) throws(GraphValidationError) -> Void,
    subgraphs: ((inout StoreState, inout StoreSubgraphs, inout StoreLog) throws(GraphValidationError) -> Void)? = nil
  )
    throws(GraphValidationError)
  {
    let call = try storage.withLock { (storage) throws(GraphValidationError) -> ChangeDelivery.CallID? in
      try storage.checkGuards(operation)
      if let subgraphs, !storage.subgraphs.isEmpty {
        let call = try storage.commitWithSubgraphs(operation, subgraphs)
        storage.record(operation, .applied)
        return call
      }
      var log = StoreLog()
      do throws(GraphValidationError) {
        try body(&storage.state, &log)
      } catch {
        storage.state.rollBack(log)
        storage.record(operation, .rejected(error.description))
        throw error
      }
      let call = storage.commit(log)
      storage.record(operation, .applied)
      return call
    }
    if let call { deliver(call) }
  }

  /// Checks every invariant of the store's state (only with `FLOW_INTERNAL_CHECKS`; a no-op
  /// otherwise). Traps on a violation.
  package func _checkInvariants() {
    storage.withLock { storage in
      storage.state._checkInvariants()
      storage.undoStack._checkInvariants()
      storage.operationHistory._checkInvariants()
      storage.delivery._checkInvariants()
      #if FLOW_INTERNAL_CHECKS
      precondition(
        storage.waiterHead <= storage.waiters.count
          && (storage.queueBusy || storage.waiterHead == storage.waiters.count),
        "Internal inconsistency: \(storage.waiters.count - storage.waiterHead) operations wait for a free turn")
      precondition(
        storage.waiterHead < 64 || storage.waiterHead * 2 < storage.waiters.count,
        "Internal inconsistency: \(storage.waiterHead) handed-out waiters kept")
      #endif
    }
  }

  /// How many node and edge slots the store holds, tombstones included (for tests of compaction).
  package var _slotCounts: (nodes: Int, edges: Int) { storage.withLock { ($0.state.nodes.count, $0.state.ends.count) } }
}
