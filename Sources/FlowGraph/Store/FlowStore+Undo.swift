extension FlowStore {
  /// How many mutations `undo()` can go back by default; older steps are forgotten.
  public static let undoLimit = 1_000

  /// One undoable mutation or batch: its steps and their inverses, by slot, so that undo and
  /// redo put every node and edge back exactly where it was.
  struct HistoryEntry: Sendable {
    var forward: [StoreStep]
    var inverse: [StoreStep]
    /// For a definition change (`setSubgraph`): the subgraph state before and after.
    var subgraphs: SubgraphHistory? { subgraphsBox?.value }
    /// `subgraphs`, boxed: every mutation pushes an entry, and most have none (an entry's size is
    /// what each push copies).
    private let subgraphsBox: Boxed<SubgraphHistory>?

    init(forward: [StoreStep], inverse: [StoreStep], subgraphs: SubgraphHistory? = nil) {
      self.forward = forward
      self.inverse = inverse
      subgraphsBox = subgraphs.map(Boxed.init)
    }

    /// The entry after `StoreState.compact(keeping:)` renumbered the slots.
    func renumbered(by map: StoreState.SlotMap) -> HistoryEntry {
      HistoryEntry(forward: forward.map(map.operation), inverse: inverse.map(map.operation), subgraphs: subgraphs)
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

  /// How many mutations `undo()` can go back (`undoLimit` unless changed); pushing a step
  /// beyond it forgets the oldest, in O(1). Lowering it forgets the oldest steps at once; the
  /// redo steps are kept up to the same number.
  public var undoCapacity: Int {
    get { storage.withLock { $0.undoStack.capacity } }
    set {
      storage.withLock { storage in
        storage.undoStack.setCapacity(newValue)
        let extra = storage.redoStack.count - storage.undoStack.capacity
        if extra > 0 { storage.redoStack.removeFirst(extra) }
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
  /// An undo is an operation too: a synchronous guard may veto it (see `StoreGuard`); it then
  /// changes nothing and the step stays on the undo stack. `apply(.undo)` throws the veto.
  ///
  /// - Returns: `false` if there was nothing to undo or a guard vetoed it (`attemptUndo()` tells
  ///   which).
  @discardableResult
  public func undo() -> Bool { (try? undoOrRedo(redo: false)) ?? false }

  /// Redoes the last undone mutation or batch, firing the ordinary callbacks. A guard may veto
  /// it like an undo.
  ///
  /// - Returns: `false` if there was nothing to redo or a guard vetoed it (`attemptRedo()` tells
  ///   which).
  @discardableResult
  public func redo() -> Bool { (try? undoOrRedo(redo: true)) ?? false }

  /// Undoes or redoes one step, delivering its change.
  ///
  /// - Returns: `false` if there was nothing to undo (redo).
  /// - Throws: a guard's veto.
  func undoOrRedo(redo: Bool) throws(GraphValidationError) -> Bool {
    let (done, call) = try storage.withLock { (storage) throws(GraphValidationError) in
      try redo ? storage.redo() : storage.undo()
    }
    if let call { deliver(call) }
    return done
  }
}

extension FlowStore.Storage {
  /// Applies the inverse steps of the last entry, last first, unless a guard vetoes the result.
  ///
  /// - Throws: the veto; the steps are then rolled back and the entry stays.
  mutating func undo() throws(GraphValidationError) -> (done: Bool, call: ChangeDelivery.CallID?) {
    guard let entry = undoStack.last else { return (false, nil) }
    var log = state.replay(entry.inverse.reversed())
    if entry.subgraphs?.name != nil { state.shareResolutions(&log) }
    let operation = try checkReplay(log, kind: .undo)
    _ = undoStack.popLast()
    redoStack.append(entry)
    compactIfNeeded()
    var resolutions = log.resolutions
    if let history = entry.subgraphs {
      subgraphs = history.before
      resolutions.subgraphsChanged = history.name.map { [$0] } ?? []
    }
    let call = publish(log.items, resolutions: resolutions)
    record(operation, .applied)
    return (true, call)
  }

  /// Applies the steps of the last undone entry again, in order, unless a guard vetoes it.
  ///
  /// - Throws: the veto; the steps are then rolled back and the entry stays.
  mutating func redo() throws(GraphValidationError) -> (done: Bool, call: ChangeDelivery.CallID?) {
    guard let entry = redoStack.last else { return (false, nil) }
    var log = state.replay(entry.forward)
    if entry.subgraphs?.name != nil { state.shareResolutions(&log) }
    let operation = try checkReplay(log, kind: .redo)
    _ = redoStack.popLast()
    undoStack.append(entry)
    compactIfNeeded()
    var resolutions = log.resolutions
    if let history = entry.subgraphs {
      subgraphs = history.after
      resolutions.subgraphsChanged = history.name.map { [$0] } ?? []
    }
    let call = publish(log.items, resolutions: resolutions)
    record(operation, .applied)
    return (true, call)
  }

  /// Checks the invariants after a replay and asks the synchronous guards about it; on a veto,
  /// rolls the replay back and throws. Without guards, a replay of whole adds, replacements
  /// and removals (a definition edit's) is described only when the history is read.
  ///
  /// - Returns: the operation as the guards saw it.
  private mutating func checkReplay(_ log: StoreLog, kind: StoreOperation.Kind) throws(GraphValidationError)
    -> RecordedOperation
  {
    state._checkInvariants(after: log)
    if guards.isEmpty && StoreOperation.replaysWhole(log.items) { return .replayed(kind, items: log.items) }
    let operation = state.describe(kind, items: log.items)
    do throws(GraphValidationError) {
      try checkGuards(operation)
      return .other(operation)
    } catch {
      state.rollBack(log)
      state._checkInvariants(after: log)
      throw error
    }
  }
}
