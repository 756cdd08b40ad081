extension FlowStore {
  /// Everything a `FlowStore` guards with its one lock: the graph, the revision, undo history,
  /// the callbacks and observers, the queue of changes not yet delivered, the guards, the
  /// operation history and the turn-taking of `perform(_:)`.
  ///
  /// Invariants: `delivery.queue` holds the undelivered changes in increasing revision order,
  /// the last one's revision being `revision`; `parkers` holds the parked calls of `delivery`.
  struct Storage: Sendable {
    var state: StoreState
    /// The definitions and the instances as written (Reference.md, "Subgraphs"); `state` holds the flattened graph.
    var subgraphs = StoreSubgraphs()
    /// The slots `setSubgraph` found its instances at last, in the order it listed them: hints
    /// for the next one (each checked against the node's id; see `StoreState.inSlotOrder`).
    var instanceSlotHints: [Int32] = []
    /// The positions of those instances in slot order, as last found.
    var instanceOrderHints: [Int32] = []
    /// The revision of the last accepted change.
    var revision = 0
    /// The newest entry last; at most `undoCapacity` entries, the oldest forgotten first.
    var undoStack = RingBuffer<HistoryEntry>(capacity: FlowStore.undoLimit)
    /// At most as many entries as `undoStack` can hold, since each came from it.
    var redoStack: [HistoryEntry] = []
    /// In the order they were added.
    var guards: [StoreGuard] = []
    /// Applied, blocked and rejected operations, oldest first.
    var operationHistory = RingBuffer<StoredRecord>(capacity: FlowStore.operationHistoryLimit)
    var nextRecordSequence = 0
    /// Turn-taking of `perform(_:)`: whether an operation holds the turn, and the tasks
    /// waiting for it in submission order (`waiters[waiterHead...]`).
    var queueBusy = false
    var waiters: [CheckedContinuation<Void, Never>] = []
    var waiterHead = 0
    /// Test hook: called under the lock with each operation submitted to `perform(_:)`, in
    /// submission order.
    var onSubmit: (@Sendable (StoreOperation) -> Void)?
    var onNodesChange: (@Sendable ([NodeChange]) -> Void)?
    var onEdgesChange: (@Sendable ([EdgeChange]) -> Void)?
    /// In subscription order.
    var observers: [Observer] = []
    var nextObserverID: UInt64 = 0
    /// The undelivered changes and who delivers them.
    var delivery = ChangeDelivery()
    /// The calls of `delivery` waiting for their turn, by id.
    var parkers: [ChangeDelivery.CallID: Parker] = [:]
    /// Tombstones are dropped when there are more than this many (see `compactIfNeeded()`).
    var compactionThreshold = Storage.compactionMinimum
    /// The least `compactionThreshold`; tests lower it to compact often.
    var compactionMinimum = Storage.compactionMinimum

    static let compactionMinimum = 4_096

    /// Starts with a threshold proportional to the graph, as after a compaction, so a big
    /// graph is not compacted (O(*n*)) after its first few thousand edits.
    init(state: StoreState) {
      self.state = state
      compactionThreshold = max(Storage.compactionMinimum, state.nodeCount + state.edgeCount)
    }

    /// One `observe(_:)` subscription.
    struct Observer: Sendable {
      var id: UInt64
      /// The revision of the snapshot the observer started from: it gets later changes only.
      var since: Int
      var handler: @Sendable (FlowStoreChange) -> Void
    }

    /// What one step of delivery calls, outside the lock.
    struct Delivery: Sendable {
      var change: FlowStoreChange
      /// Every observer (shared, not filtered: no allocation per change); those subscribed at or
      /// after the change's revision are skipped when calling.
      var observers: [Observer]
      var onNodesChange: (@Sendable ([NodeChange]) -> Void)?
      var onEdgesChange: (@Sendable ([EdgeChange]) -> Void)?
    }

    /// Records an accepted mutation: bumps the revision, pushes the undo entry (clearing redo)
    /// and queues the change. A mutation that changed nothing is no revision and fires nothing.
    ///
    /// - Returns: the delivery call the caller must run (see `enqueue`).
    mutating func commit(_ log: StoreLog, subgraphs history: SubgraphHistory? = nil) -> ChangeDelivery.CallID? {
      state._checkInvariants(after: log)
      guard !log.items.isEmpty else { return nil }
      // O(1); forgets the oldest when full
      undoStack.append(HistoryEntry(forward: log.forward, inverse: log.inverse, subgraphs: history))
      redoStack.removeAll()
      compactIfNeeded()
      return publish(log.items, resolutions: log.resolutions)
    }

    /// Drops the tombstones no history entry needs once they outnumber the threshold, and
    /// renumbers the history. The threshold then grows with the graph and with what had to be
    /// kept, so compaction costs O(1) amortized per removal.
    mutating func compactIfNeeded() {
      guard state.tombstoneCount > compactionThreshold else { return }
      let history = (undoStack.elements + redoStack).lazy.flatMap { $0.forward + $0.inverse }
      let map = state.compact(keeping: history)
      undoStack.transform { $0.renumbered(by: map) }
      redoStack = redoStack.map { $0.renumbered(by: map) }
      compactionThreshold = max(compactionMinimum, state.nodeCount + state.edgeCount, 2 * state.tombstoneCount)
      state._checkInvariants()
    }

    /// Bumps the revision and queues a change with `items`.
    mutating func publish(_ items: [FlowStoreChange.Item], resolutions: ChangeResolutions = ChangeResolutions())
      -> ChangeDelivery.CallID?
    {
      revision += 1
      state.initialPayloads = []
      var change = FlowStoreChange(revision: revision, items: items)
      change.resolutions = resolutions
      return enqueue(change)
    }

    /// Queues `change` for delivery.
    ///
    /// - Returns: the delivery call the caller must pass to `FlowStore.deliver(_:)` after
    ///   unlocking; `nil` if another call will deliver the change (see `ChangeDelivery`).
    mutating func enqueue(_ change: FlowStoreChange) -> ChangeDelivery.CallID? {
      delivery.enqueue(change, thread: Parker.currentThreadID)
    }
  }
}
