extension FlowStore {
  /// The mutations of one `batch(_:)`, applied to the store as they are called and committed
  /// together: one revision, one `FlowStoreChange` with every item in order, one callback of
  /// each kind, one undo step.
  ///
  /// Each method checks and throws like the store's method of the same name; a call that throws
  /// changes nothing, so the body may catch it and go on. If the body throws, the whole batch
  /// is rolled back. The body runs under the store's lock: read through the batch, and do not
  /// call the store (that would deadlock).
  public struct Batch: ~Copyable {
    var state: StoreState
    var log = StoreLog()
    /// The instances as written, when the store holds subgraphs (mutations of instances and
    /// edges into them then go through the subgraph-aware paths).
    var subgraphs = StoreSubgraphs()

    init(state: StoreState) { self.state = state }

    /// The nodes as the batch has left them, in insertion order.
    public var nodes: [FlowNode] { state.liveNodes }

    /// The edges as the batch has left them, in insertion order.
    public var edges: [FlowEdge] { state.liveEdges }

    /// The node with id `id`, if any. O(1).
    public func node(id: String) -> FlowNode? { state.node(id: id) }

    /// The edge with id `id`, if any. O(1).
    public func edge(id: String) -> FlowEdge? { state.edge(id: id) }

    /// The edges into the node, in the order of its input ports.
    public func incomingEdges(of nodeID: String) -> [FlowEdge] { state.incomingEdges(of: nodeID) }

    /// The edges out of the node, in insertion order.
    public func outgoingEdges(of nodeID: String) -> [FlowEdge] { state.outgoingEdges(of: nodeID) }

    /// See `FlowStore.addNode(_:)`.
    public mutating func addNode(_ node: FlowNode) throws(GraphValidationError) {
      if subgraphs.isEmpty {
        try state.addNode(node, log: &log)
      } else {
        try state.addNode(node, subgraphs: &subgraphs, log: &log)
      }
    }

    /// See `FlowStore.removeNode(id:)`.
    public mutating func removeNode(id: String) throws(GraphValidationError) {
      if subgraphs.isEmpty {
        try state.removeNode(id: id, log: &log)
      } else {
        try state.removeNode(id: id, subgraphs: &subgraphs, log: &log)
      }
    }

    /// See `FlowStore.updateNode(_:)`.
    public mutating func updateNode(_ node: FlowNode) throws(GraphValidationError) {
      if subgraphs.isEmpty {
        try state.updateNode(node, log: &log)
      } else {
        try state.updateNode(node, subgraphs: &subgraphs, log: &log)
      }
    }

    /// See `FlowStore.addEdge(_:)`.
    public mutating func addEdge(_ edge: FlowEdge) throws(GraphValidationError) {
      if subgraphs.isEmpty {
        try state.addEdge(edge, log: &log)
      } else {
        try state.addEdge(edge, subgraphs: subgraphs, log: &log)
      }
    }

    /// See `FlowStore.removeEdge(id:)`.
    public mutating func removeEdge(id: String) throws(GraphValidationError) { try state.removeEdge(id: id, log: &log) }

    /// See `FlowStore.updateEdge(_:)`.
    public mutating func updateEdge(_ edge: FlowEdge) throws(GraphValidationError) {
      if subgraphs.isEmpty {
        try state.updateEdge(edge, log: &log)
      } else {
        try state.updateEdge(edge, subgraphs: subgraphs, log: &log)
      }
    }
  }

  /// Applies several mutations all or nothing.
  ///
  /// On success: one revision, one `FlowStoreChange` with all items in order, and at most one
  /// call of each callback (none if the batch changed nothing). If `body` throws, the mutations
  /// it made are undone by applying their inverse steps in reverse — never by copying the graph —
  /// nothing fires, and the error is rethrown. Likewise if a synchronous guard vetoes the batch,
  /// which it sees after the body ran (kind `.batch`, every id the body touched).
  ///
  /// - Parameter body: makes the mutations through the `Batch`; it runs under the store's lock
  ///   and must not call the store.
  /// - Throws: what `body` throws, or a guard's veto.
  /// - Complexity: the sum of the mutations' costs; a rollback costs the same again.
  public func batch(_ body: (inout Batch) throws(GraphValidationError) -> Void) throws(GraphValidationError) {
    try batch(operations: [], body)
  }

  /// `batch(_:)`, described to the guards and the history with `operations` (those of
  /// `StoreOperation.batch(_:)`, or none). The synchronous guards see what the body did.
  func batch(operations: [StoreOperation], _ body: (inout Batch) throws(GraphValidationError) -> Void)
    throws(GraphValidationError)
  {
    let call = try storage.withLock { (storage) throws(GraphValidationError) -> ChangeDelivery.CallID? in
      // Move the graph into the batch (and back) without copying it.
      var batch = Batch(state: StoreState(catalog: catalog))
      swap(&storage.state, &batch.state)
      batch.subgraphs = storage.subgraphs
      var operation = StoreOperation.batch(operations)
      do throws(GraphValidationError) {
        do throws(GraphValidationError) {
          try body(&batch)
        } catch {
          storage.record(operation, .rejected(error.description))
          throw error
        }
        operation = batch.state.describe(.batch, items: batch.log.items, operations: operations)
        try storage.checkGuards(operation)
      } catch {
        batch.state.rollBack(batch.log)
        swap(&storage.state, &batch.state)
        storage.state._checkInvariants(after: batch.log)
        storage.compactIfNeeded()
        throw error
      }
      swap(&storage.state, &batch.state)
      let before = storage.subgraphs
      let call: ChangeDelivery.CallID?
      if before.isEmpty {
        call = storage.commit(batch.log)
      } else {
        storage.subgraphs = batch.subgraphs
        call = storage.commit(batch.log, subgraphs: SubgraphHistory(before: before, after: batch.subgraphs, name: nil))
      }
      storage.record(operation, .applied)
      return call
    }
    if let call { deliver(call) }
  }
}
