import FlowGraph

/// The mutable state of a `FlowEngine`, guarded by its mutex.
///
/// Invariants: `evaluator` is `nil` exactly while the runner holds it for a pass
/// (`isRunning` is then true); `completedRevision <= latestRevision`; revision waiters wait for
/// a revision greater than `completedRevision`; readers are queued only while `evaluator` is nil.
struct EngineState: Sendable {
  var evaluator: GraphEvaluator?
  /// Store changes and triggered nodes received since the runner last took work.
  var pendingChanges: [FlowStoreChange] = []
  var pendingTriggers: [String] = []
  /// The newest store revision received.
  var latestRevision: Int
  /// The revision of the last pass that completed (and published).
  var completedRevision = -1
  var isRunning = false
  var isShutDown = false
  var runner: Task<Void, Never>?
  /// While a concurrent pass runs: yields to make it stop waiting for child tasks.
  var stopSignal: AsyncStream<Void>.Continuation?
  var lastReport: EvaluationReport?
  var revisionWaiters: [(revision: Int, continuation: CheckedContinuation<EvaluationReport?, Never>)] = []
  var readers: [@Sendable (GraphEvaluator) -> Void] = []
  var reportSubscribers: [Int: AsyncStream<EvaluationReport>.Continuation] = [:]
  var valueSubscribers: [Int: (nodeID: String, continuation: AsyncStream<[String: Value]>.Continuation)] = [:]
  var nextSubscriberID = 0

  init(evaluator: GraphEvaluator?, revision: Int) {
    self.evaluator = evaluator
    latestRevision = revision
  }

  /// Whether the runner has anything to do.
  var hasWork: Bool { !pendingChanges.isEmpty || !pendingTriggers.isEmpty || evaluator?.hasPendingWork == true }
}
