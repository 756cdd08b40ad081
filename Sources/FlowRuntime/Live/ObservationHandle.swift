import Synchronization

/// An observer of one node (`FlowEngine.observe(_:)`): while it is not cancelled, the node and
/// its ancestors are *necessary* (computed by demand-driven passes; `onDemand` live nodes
/// among them run). Cancelling is idempotent; a handle that is dropped without being
/// cancelled keeps observing (observers are explicit, as in Incremental).
public final class ObservationHandle: Sendable {
  /// The observed node.
  public let nodeID: String
  private let cancelled = Atomic<Bool>(false)
  private let onCancel: @Sendable () -> Void

  init(nodeID: String, onCancel: @escaping @Sendable () -> Void) {
    self.nodeID = nodeID
    self.onCancel = onCancel
  }

  /// Whether `cancel()` was called.
  public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  /// Stops observing the node.
  public func cancel() {
    guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
    onCancel()
  }
}
