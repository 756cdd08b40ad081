import FlowGraph

/// Everything `EngineCore` guards with its one lock: the state machine and the effects'
/// bookkeeping it does not need to decide anything (the runner's handle, the stop signal of a
/// concurrent pass, the async-sequence subscribers).
struct EngineState: Sendable {
  typealias Machine = EngineStateMachine<EvaluatorCell, CheckedContinuation<EvaluationReport?, Never>>

  var machine: Machine
  /// The runner task, while one exists (owned: cancelled at shutdown).
  var runner: Task<Void, Never>?
  /// While a concurrent pass runs: yields to make it stop waiting for child tasks.
  var stopSignal: AsyncStream<Void>.Continuation?
  var reportSubscribers: [Int: AsyncStream<EvaluationReport>.Continuation] = [:]
  var valueSubscribers: [Int: ValueSubscriber] = [:]
  var nextSubscriberID = 0
  /// The evaluator's pass stamp at the last publication of values (`EngineCore.stream`).
  var publishedPass: UInt32 = 0
  /// The tasks of the live sources, until each one's body returns.
  var sourceTasks: [UInt64: Task<Void, Never>] = [:]
  /// Waiting until no source task runs.
  var sourceStopWaiters: [CheckedContinuation<Void, Never>] = []

  /// A `FlowEngine.values(of:)` sequence: its node, and the kind of state it last yielded
  /// (`nil` before the first), so a change of state without new outputs is yielded too.
  struct ValueSubscriber: Sendable {
    var nodeID: String
    var continuation: AsyncStream<NodeUpdate>.Continuation
    var lastKind: NodeState.Kind?
  }

  init(machine: Machine) { self.machine = machine }

  var isShutDown: Bool { machine.phase == .shutDown }
}
