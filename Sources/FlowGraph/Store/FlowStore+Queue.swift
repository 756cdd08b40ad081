extension FlowStore {
  /// Performs `operation` after the async guards allowed it, in a serialized queue.
  ///
  /// Operations submitted with `perform` take turns: each waits until every operation
  /// submitted before it has finished (applied, blocked or rejected), then its async guards run
  /// in order, outside the store's lock, then it is applied like `apply(_:)` — synchronous
  /// guards included. Submission order is the order in which `perform` calls reach the store;
  /// from one task, the order of its calls. The synchronous API (`addNode(_:)`, `batch(_:)`,
  /// `undo()` …) does not wait for the queue and never runs async guards, so a synchronous
  /// mutation may land between an operation's async guards and its application: guards that
  /// must see the exact graph belong in the synchronous kind.
  ///
  /// A submitted operation is always processed, even if the calling task is cancelled.
  ///
  /// - Returns: `false` for an undo (redo) with nothing to undo (redo); `true` otherwise.
  /// - Throws: a guard's veto (code `.vetoed`, recorded in `operationHistory`), or what
  ///   `apply(_:)` throws.
  @discardableResult
  public func perform(_ operation: StoreOperation) async throws(GraphValidationError) -> Bool {
    await takeTurn(operation)
    defer { passTurn() }
    let asyncGuards = storage.withLock { $0.guards }.filter { !$0.isSynchronous }
    for storeGuard in asyncGuards {
      guard case .async(let check) = storeGuard.check, case .veto(let reason) = await check(operation) else { continue }
      storage.withLock { $0.record(operation, .blocked(guard: storeGuard.name, reason: reason)) }
      throw StoreGuard.vetoError(guard: storeGuard.name, reason: reason, operation: operation)
    }
    return try apply(operation)
  }

  /// Returns when it is `operation`'s turn: at once if no performed operation is under way,
  /// else when the one before it passes the turn.
  private func takeTurn(_ operation: StoreOperation) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let mustWait = storage.withLock { storage -> Bool in
        storage.onSubmit?(operation)
        guard storage.queueBusy else {
          storage.queueBusy = true
          return false
        }
        storage.waiters.append(continuation)
        return true
      }
      if !mustWait { continuation.resume() }
    }
  }

  /// Hands the turn to the next waiting operation, or frees it.
  private func passTurn() {
    let next = storage.withLock { storage -> CheckedContinuation<Void, Never>? in
      guard storage.waiterHead < storage.waiters.count else {
        storage.waiters.removeAll(keepingCapacity: storage.waiters.count <= 64)
        storage.waiterHead = 0
        storage.queueBusy = false
        return nil
      }
      let next = storage.waiters[storage.waiterHead]
      storage.waiterHead += 1
      // A queue that never drains must not keep every continuation it ever held: drop the
      // handed-out prefix once it is half the array (amortized O(1) per operation).
      if storage.waiterHead >= 64 && storage.waiterHead * 2 >= storage.waiters.count {
        storage.waiters.removeFirst(storage.waiterHead)
        storage.waiterHead = 0
      }
      return next
    }
    next?.resume()
  }

  /// How many performed operations wait for their turn (for tests).
  package var _queuedOperationCount: Int { storage.withLock { $0.waiters.count - $0.waiterHead } }
}
