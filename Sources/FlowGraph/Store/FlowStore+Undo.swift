extension FlowStore {
  /// How many mutations `undo()` can go back; older steps are forgotten.
  static let undoLimit = 1_000

  /// One undoable mutation or batch: its steps and their inverses, by slot, so that undo and
  /// redo put every node and edge back exactly where it was.
  struct HistoryEntry: Sendable {
    var forward: [StoreOperation]
    var inverse: [StoreOperation]

    /// The entry after `StoreState.compact(keeping:)` renumbered the slots.
    func renumbered(by map: StoreState.SlotMap) -> HistoryEntry {
      HistoryEntry(forward: forward.map(map.operation), inverse: inverse.map(map.operation))
    }
  }

  /// The least number of tombstones that triggers a compaction (4,096 unless a test lowers it).
  package var _compactionMinimum: Int {
    get { storage.withLock { $0.compactionMinimum } }
    set {
      storage.withLock { storage in
        storage.compactionMinimum = newValue
        storage.compactionThreshold = newValue
      }
    }
  }

  /// Whether `undo()` has a mutation to undo (`load` clears the history).
  public var canUndo: Bool { storage.withLock { !$0.undoStack.isEmpty } }

  /// Whether `redo()` has an undone mutation to redo (any new mutation clears it).
  public var canRedo: Bool { storage.withLock { !$0.redoStack.isEmpty } }

  /// Undoes the last mutation or batch, restoring nodes, edges and their order exactly.
  ///
  /// Counts as a revision and fires the ordinary callbacks with the inverse changes (an
  /// undone add is a `.remove`, an undone removal an `.add`, and so on).
  ///
  /// - Returns: `false` if there was nothing to undo.
  @discardableResult
  public func undo() -> Bool {
    let (done, shouldDeliver) = storage.withLock { $0.undo() }
    if shouldDeliver { deliverPending() }
    return done
  }

  /// Redoes the last undone mutation or batch, firing the ordinary callbacks.
  ///
  /// - Returns: `false` if there was nothing to redo.
  @discardableResult
  public func redo() -> Bool {
    let (done, shouldDeliver) = storage.withLock { $0.redo() }
    if shouldDeliver { deliverPending() }
    return done
  }
}

extension FlowStore.Storage {
  /// Applies the inverse steps of the last entry, last first.
  mutating func undo() -> (done: Bool, shouldDeliver: Bool) {
    guard let entry = undoStack.popLast() else { return (false, false) }
    let log = state.replay(entry.inverse.reversed())
    state._checkInvariants(after: log)
    redoStack.append(entry)
    compactIfNeeded()
    return (true, publish(log.items))
  }

  /// Applies the steps of the last undone entry again, in order.
  mutating func redo() -> (done: Bool, shouldDeliver: Bool) {
    guard let entry = redoStack.popLast() else { return (false, false) }
    let log = state.replay(entry.forward)
    state._checkInvariants(after: log)
    undoStack.append(entry)
    compactIfNeeded()
    return (true, publish(log.items))
  }
}
