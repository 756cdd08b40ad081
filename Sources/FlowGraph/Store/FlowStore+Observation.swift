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

  /// Runs delivery call `call` (from `Storage.enqueue`) until every change assigned to it was
  /// handed to the handlers, outside the lock, one at a time, in revision order; parks while
  /// other calls deliver the changes before its own (see `ChangeDelivery`). Changes queued by
  /// its handlers on this thread are assigned to it, so they are delivered here too.
  func deliver(_ call: ChangeDelivery.CallID) {
    let thread = Parker.currentThreadID
    var parker: Parker?
    var finished = false
    while true {
      let (step, wake) = storage.withLock { storage -> (DeliveryStep, Parker?) in
        var wake: Parker?
        if finished, let next = storage.delivery.finish(call) { wake = storage.parkers.removeValue(forKey: next) }
        switch storage.delivery.next(call, thread: thread) {
        case .done:
          return (.done, wake)
        case .wait:
          let waiting = parker ?? Parker()
          parker = waiting
          storage.parkers[call] = waiting
          return (.wait(waiting), wake)
        case .deliver(let change):
          return (
            .deliver(
              Storage.Delivery(
                change: change, observers: storage.observers, onNodesChange: storage.onNodesChange,
                onEdgesChange: storage.onEdgesChange)), wake
          )
        }
      }
      wake?.signal()
      switch consume step {
      case .done:
        return
      case .wait(let waiting):
        waiting.wait()
        finished = false
      case .deliver(let delivery):
        Self.hand(delivery)
        finished = true
      }
    }
  }

  /// What `deliver(_:)` does after one step of the state machine.
  private enum DeliveryStep {
    case done
    case wait(Parker)
    case deliver(Storage.Delivery)
  }

  /// Calls the handlers with one change: observers first, then `onNodesChange`, then
  /// `onEdgesChange`.
  private static func hand(_ delivery: Storage.Delivery) {
    for observer in delivery.observers where observer.since < delivery.change.revision {
      observer.handler(delivery.change)
    }
    if let onNodesChange = delivery.onNodesChange {
      let changes = delivery.change.nodeChanges
      if !changes.isEmpty { onNodesChange(changes) }
    }
    if let onEdgesChange = delivery.onEdgesChange {
      let changes = delivery.change.edgeChanges
      if !changes.isEmpty { onEdgesChange(changes) }
    }
  }

  /// How many changes the store holds that were not yet handed to the handlers, and how many
  /// changes of other threads one mutating call delivered at most so far (for tests).
  package var _deliveryCounts: (retainedChanges: Int, mostHelped: Int) {
    storage.withLock { ($0.delivery.queue._liveSlotCount, $0.delivery.mostHelped) }
  }
}
