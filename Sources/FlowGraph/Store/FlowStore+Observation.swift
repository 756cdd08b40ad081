extension FlowStore {
  /// A subscription made by `observe(_:)`. `cancel()` or releasing it ends the subscription;
  /// it does not keep the store alive.
  public final class Observation: Sendable {
    private weak let store: FlowStore?
    private let id: UInt64

    init(store: FlowStore, id: UInt64) {
      self.store = store
      self.id = id
    }

    /// Ends the subscription. A delivery already under way on another thread may still call
    /// the handler once; none starts after `cancel()` returns. Cancelling twice does nothing.
    public func cancel() {
      let removed = store?.storage.withLock { storage -> FlowStore.Storage.Observer? in
        guard let index = storage.observers.firstIndex(where: { $0.id == id }) else { return nil }
        return storage.observers.remove(at: index)
      }
      withExtendedLifetime(removed) {}  // the handler is released outside the lock
    }

    deinit { cancel() }
  }

  /// Subscribes `handler` to every later change and returns the current graph, atomically: the
  /// handler receives exactly the changes after `revision`, in order, none missed or repeated.
  ///
  /// The snapshot holds every node, transient ones included, with viewport and extra keys.
  /// The handler is called outside the store's lock (it may read or mutate the store); keep
  /// the returned observation, since releasing it unsubscribes.
  ///
  /// - Returns: the graph, its revision, and the subscription.
  /// - Complexity: O(*n* + *m*) for the snapshot.
  public func observe(_ handler: @escaping @Sendable (FlowStoreChange) -> Void)
    -> (snapshot: FlowDocument, revision: Int, observation: Observation)
  {
    let (snapshot, revision, id) = storage.withLock { storage in
      let id = storage.nextObserverID
      storage.nextObserverID += 1
      storage.observers.append(Storage.Observer(id: id, since: storage.revision, handler: handler))
      return (storage.state.snapshot(), storage.revision, id)
    }
    return (snapshot, revision, Observation(store: self, id: id))
  }

  /// Delivers queued changes, outside the lock, until the queue is empty. Only the thread that
  /// `Storage.enqueue` designated calls this, so deliveries never overlap and follow revision
  /// order; changes queued meanwhile (by handlers or other threads) are delivered here too.
  func deliverPending() {
    while let delivery = storage.withLock({ $0.nextDelivery() }) {
      for observer in delivery.observers where observer.since < delivery.change.revision { observer.handler(delivery.change) }
      if let onNodesChange = delivery.onNodesChange {
        let changes = delivery.change.nodeChanges
        if !changes.isEmpty { onNodesChange(changes) }
      }
      if let onEdgesChange = delivery.onEdgesChange {
        let changes = delivery.change.edgeChanges
        if !changes.isEmpty { onEdgesChange(changes) }
      }
    }
  }
}
