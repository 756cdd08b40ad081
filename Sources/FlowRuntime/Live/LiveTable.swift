import FlowGraph
import Synchronization

/// One live node's bookkeeping inside an evaluator.
struct LiveNodeState: Sendable {
  var behavior: LiveBehavior
  var kind: String
  /// The committed state (of the last pass that completed).
  var state: Value
  /// A stateful node's inputs at its last completed run (`nil` before the first).
  var lastInputs: [Value]?
  /// A running source's token (fresh per start).
  var token: UInt64?
  /// A source emitted at least once (its outputs have values).
  var hasEmitted = false
  /// How many values a source has emitted into passes (`flow serve` shows it).
  var emissionCount = 0
  /// A source's `run` returned.
  var isFinished = false
  /// Unreadable saved state, or a failed source: the node fails with this message.
  var errorMessage: String?
}

/// A new state computed in a pass, committed only if the pass completes.
struct StagedLiveState: Sendable {
  var node: Int32
  var state: Value
  /// The inputs of a stateful node's run; `nil` for a source's emission.
  var inputs: [Value]?
}

/// A source the engine must start: the runner starts a task for it after the lock.
struct LiveSourceStart: Sendable {
  var token: UInt64
  var node: Int32
  var id: String
  var source: any LiveSource
  var state: Value
}

/// Sources to start and stop after a batch of edits (`GraphEvaluator.takeLiveChanges()`).
struct LiveChanges: Sendable {
  var starts: [LiveSourceStart] = []
  var stops: [UInt64] = []
  var isEmpty: Bool { starts.isEmpty && stops.isEmpty }
}

/// The live side of an evaluator: sparse (only live nodes have an entry), so graphs without
/// live nodes pay nothing for it.
///
/// Invariants: `nodes` holds exactly the present nodes whose instance is live; a token is held
/// by at most one entry; `staged` is empty between passes.
struct LiveTable: Sendable {
  var nodes: [Int32: LiveNodeState] = [:]
  var staged: [StagedLiveState] = []
  /// Live nodes whose membership or necessity changed since the last `takeLiveChanges()`.
  var touched: [Int32] = []
  /// Tokens of sources to stop (their node left or was reconfigured).
  var stops: [UInt64] = []
  /// Sources behind lazy inputs that a pass brought up: they keep running while needed
  /// through any input, as eagerly needed sources do (a source only a branch not taken
  /// reaches never starts).
  var broughtUp: Set<Int32> = []
  /// The emission the next pass starts with.
  var emission: LiveEmission?
  /// `emissionReach[n] == emissionPass` iff node `n` descends from the source of the
  /// emission of pass `emissionPass` (grown on demand).
  var emissionReach: [UInt32] = []
  var emissionPass: UInt32 = 0

  /// Source tokens are unique in the process, so a token never names two starts.
  static let nextToken = Atomic<UInt64>(1)

  static func makeToken() -> UInt64 { nextToken.wrappingAdd(1, ordering: .relaxed).oldValue }

  /// The tokens of every running source.
  var runningTokens: [UInt64] { nodes.values.compactMap(\.token) }

  /// Traps if the table is inconsistent between passes: nothing staged, no token held twice,
  /// no reach stamp ahead of the last emission's pass. Only with `FLOW_INTERNAL_CHECKS`.
  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    precondition(staged.isEmpty, "Internal inconsistency: live states staged between passes")
    let tokens = runningTokens
    precondition(Set(tokens).count == tokens.count, "Internal inconsistency: a source token held twice")
    #endif
  }
}
