extension FlowStore {
  /// How many records `operationHistory` keeps by default.
  public static let operationHistoryLimit = 1_000

  /// Adds a guard, after the others; a guard with the same name is replaced in place.
  public func addGuard(_ storeGuard: StoreGuard) {
    let old = storage.withLock { storage -> StoreGuard? in
      if let index = storage.guards.firstIndex(where: { $0.name == storeGuard.name }) {
        defer { storage.guards[index] = storeGuard }
        return storage.guards[index]
      }
      storage.guards.append(storeGuard)
      return nil
    }
    withExtendedLifetime(old) {}  // released outside the lock: its captures' deinits may call the store
  }

  /// Removes the guard named `name`.
  ///
  /// - Returns: whether there was one.
  @discardableResult
  public func removeGuard(named name: String) -> Bool {
    let removed = storage.withLock { storage -> StoreGuard? in
      guard let index = storage.guards.firstIndex(where: { $0.name == name }) else { return nil }
      return storage.guards.remove(at: index)
    }
    return withExtendedLifetime(removed) { removed != nil }
  }

  /// The names of the guards, in the order they run.
  public var guardNames: [String] { storage.withLock { $0.guards.map(\.name) } }

  /// The latest operations the store was asked to perform — applied, blocked by a guard, or
  /// rejected by validation — oldest first, with their outcome and revision; for debugging.
  /// Holds at most `operationHistoryCapacity` records. Undo or redo with nothing to undo is
  /// not recorded.
  public var operationHistory: [OperationRecord] { storage.withLock { $0.operationHistory.elements }.map(\.record) }

  /// How many records `operationHistory` keeps (`operationHistoryLimit` unless changed); older
  /// ones are forgotten, in O(1) per record.
  public var operationHistoryCapacity: Int {
    get { storage.withLock { $0.operationHistory.capacity } }
    set { storage.withLock { $0.operationHistory.setCapacity(newValue) } }
  }

  /// Performs `operation` now, on the calling thread, checking the synchronous guards only.
  ///
  /// - Returns: `false` for an undo (redo) with nothing to undo (redo); `true` otherwise.
  /// - Throws: a guard's veto (code `.vetoed`), the validation errors of the operation's
  ///   method (`addNode(_:)` …), or `.unsupportedOperation` for an operation that lacks its
  ///   node, edge or document, or a batch holding an undo, redo, load or batch.
  @discardableResult
  public func apply(_ operation: StoreOperation) throws(GraphValidationError) -> Bool {
    switch operation.kind {
    case .undo: return try undoOrRedo(redo: false)
    case .redo: return try undoOrRedo(redo: true)
    case .load:
      guard let document = operation.document else { throw Self.unsupported(operation, "it has no document") }
      try load(document)
    case .batch:
      try batch(operations: operation.operations) { (batch) throws(GraphValidationError) in
        for step in operation.operations { try batch.apply(step) }
      }
    default:
      try mutate(.other(operation)) { (state, log) throws(GraphValidationError) in try state.apply(operation, log: &log)
      }
    }
    return true
  }

  static func unsupported(_ operation: StoreOperation, _ why: String) -> GraphValidationError {
    GraphValidationError(
      GraphIssue(
        .unsupportedOperation, "cannot apply \(operation): \(why)",
        nodeIDs: operation.nodeIDs, edgeID: operation.edgeIDs.first))
  }

  /// Test hook: called under the store's lock with each operation submitted to `perform(_:)`,
  /// in submission order. It must not call the store.
  package var _onSubmit: (@Sendable (StoreOperation) -> Void)? {
    get { storage.withLock { $0.onSubmit } }
    set { storage.withLock { $0.onSubmit = newValue } }
  }
}

extension FlowStore.Batch {
  /// Applies an add, remove or update operation (see `FlowStore.apply(_:)`).
  ///
  /// - Throws: what the operation's method throws, or `.unsupportedOperation`.
  public mutating func apply(_ operation: StoreOperation) throws(GraphValidationError) {
    try state.apply(operation, log: &log)
  }
}

extension FlowStore.Storage {
  /// Asks each synchronous guard about `operation`; the first veto is recorded and thrown.
  mutating func checkGuards(_ operation: StoreOperation) throws(GraphValidationError) {
    try checkGuards(.other(operation))
  }

  /// `checkGuards(_:)` building the `StoreOperation` only if there are guards.
  mutating func checkGuards(_ recorded: RecordedOperation) throws(GraphValidationError) {
    guard !guards.isEmpty else { return }
    let operation = recorded.operation
    for storeGuard in guards {
      guard case .sync(let check) = storeGuard.check, case .veto(let reason) = check(operation) else { continue }
      record(recorded, .blocked(guard: storeGuard.name, reason: reason))
      throw StoreGuard.vetoError(guard: storeGuard.name, reason: reason, operation: operation)
    }
  }

  /// Appends a record to the operation history (a load without its document).
  mutating func record(_ operation: StoreOperation, _ outcome: OperationRecord.Outcome) {
    record(.other(operation), outcome)
  }

  /// Appends a record to the operation history (a load without its document).
  mutating func record(_ operation: RecordedOperation, _ outcome: OperationRecord.Outcome) {
    var operation = operation
    if case .other(var full) = operation, full.kind == .load {
      full.document = nil
      operation = .other(full)
    }
    operationHistory.append(
      FlowStore.StoredRecord(
        sequence: nextRecordSequence, operation: operation,
        outcome: outcome, revision: revision))
    nextRecordSequence += 1
  }
}

extension StoreState {
  /// Performs an add, remove or update operation.
  ///
  /// - Throws: what the mutation throws, or `.unsupportedOperation` if the operation lacks its
  ///   node or edge or is not an add, remove or update.
  mutating func apply(_ operation: StoreOperation, log: inout StoreLog) throws(GraphValidationError) {
    switch operation.kind {
    case .addNode, .updateNode:
      guard let node = operation.nodes.first else { throw FlowStore.unsupported(operation, "it has no node") }
      if operation.kind == .addNode { try addNode(node, log: &log) } else { try updateNode(node, log: &log) }
    case .removeNode:
      guard let id = operation.nodeIDs.first else { throw FlowStore.unsupported(operation, "it has no node id") }
      try removeNode(id: id, log: &log)
    case .addEdge, .updateEdge:
      guard let edge = operation.edges.first else { throw FlowStore.unsupported(operation, "it has no edge") }
      if operation.kind == .addEdge { try addEdge(edge, log: &log) } else { try updateEdge(edge, log: &log) }
    case .removeEdge:
      guard let id = operation.edgeIDs.first else { throw FlowStore.unsupported(operation, "it has no edge id") }
      try removeEdge(id: id, log: &log)
    default:
      throw FlowStore.unsupported(operation, "only adds, removes and updates go one by one or in a batch")
    }
  }

  /// Describes what a batch, undo or redo did, from its change items: the ids it touched in
  /// order, and the nodes and edges still in the graph as they are now.
  ///
  /// - Complexity: O(items).
  func describe(
    _ kind: StoreOperation.Kind, items: [FlowStoreChange.Item],
    operations: [StoreOperation] = []
  ) -> StoreOperation {
    var nodeIDs: [String] = []
    var edgeIDs: [String] = []
    for item in items {
      switch item {
      case .node(let change): nodeIDs.append(change.nodeID)
      case .edge(let change): edgeIDs.append(change.edgeID)
      case .subgraphReplaced(let replacement): nodeIDs += replacement.nodeChanges.map(\.nodeID)
      }
    }
    nodeIDs = StoreOperation.unique(nodeIDs)
    edgeIDs = StoreOperation.unique(edgeIDs)
    return StoreOperation(
      kind: kind, nodeIDs: nodeIDs, edgeIDs: edgeIDs, nodes: nodeIDs.compactMap { node(id: $0) },
      edges: edgeIDs.compactMap { edge(id: $0) }, operations: operations)
  }
}
