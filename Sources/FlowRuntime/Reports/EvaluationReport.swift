/// What one pass did: which nodes ran and in what order, which were cut off, which failed.
///
/// Node lists hold dense indices and resolve to ids on access, so producing a report costs
/// no string work on the hot path.
public struct EvaluationReport: Sendable {
  /// The revision of the graph this pass brought up to date.
  public var revision: Int
  /// Whether the pass was cancelled before it finished (a newer revision superseded it).
  public var wasCancelled: Bool
  /// Wall time of the whole pass.
  public var duration: Duration
  let nodeIDs: [String]
  let ranIndices: [Int32]
  let cutOffIndices: [Int32]
  let failedIndices: [Int32]
  let failureMessages: [String]
  let durationsByIndex: [Int32: Duration]
  let startsByIndex: [Int32: Duration]
  /// Lazy passes: the nodes not eagerly needed, and those of them the pass brought up.
  let notEagerIndices: [Int32]
  let broughtIndices: [Int32]
  let caughtByIndex: [Int32: String]
  /// The nodes served from the run cache's folder in this pass, in document order
  /// (`EngineOptions.cache`): they did not run and are not in `ran`.
  public internal(set) var fromCache: [String] = []

  init(
    revision: Int, wasCancelled: Bool, duration: Duration, nodeIDs: [String], ran: [Int32], cutOff: [Int32],
    failed: [Int32], failureMessages: [String], durations: [Int32: Duration], starts: [Int32: Duration] = [:],
    notEager: [Int32] = [], brought: [Int32] = [], caught: [Int32: String] = [:]
  ) {
    self.revision = revision
    self.wasCancelled = wasCancelled
    self.duration = duration
    self.nodeIDs = nodeIDs
    self.ranIndices = ran
    self.cutOffIndices = cutOff
    self.failedIndices = failed
    self.failureMessages = failureMessages
    self.durationsByIndex = durations
    self.startsByIndex = starts
    notEagerIndices = notEager
    broughtIndices = brought
    caughtByIndex = caught
  }

  /// The nodes whose evaluation ran, in the order they ran (each at most once).
  public var ran: [String] { ranIndices.map { nodeIDs[Int($0)] } }
  /// The nodes that ran and produced their previous outputs again, so their descendants did
  /// not run on their account (early cutoff).
  public var cutOff: [String] { cutOffIndices.map { nodeIDs[Int($0)] } }
  /// The nodes that failed in this pass, by their own error or an upstream one, with messages.
  public var failed: [String: String] {
    Dictionary(zip(failedIndices.map { nodeIDs[Int($0)] }, failureMessages), uniquingKeysWith: { first, _ in first })
  }
  /// How many node evaluations ran.
  public var evaluationCount: Int { ranIndices.count }
  /// Per-node wall time of the nodes that were timed (expensive nodes always; all nodes when
  /// `EngineOptions.timesEveryNode` is on).
  public var durations: [String: Duration] {
    Dictionary(uniqueKeysWithValues: durationsByIndex.map { (nodeIDs[Int($0.key)], $0.value) })
  }
  /// When each timed node started, as an offset from the start of the pass (the same nodes as
  /// `durations`): with `durations`, a timeline of the pass (`flow run --trace`).
  public var starts: [String: Duration] {
    Dictionary(uniqueKeysWithValues: startsByIndex.map { (nodeIDs[Int($0.key)], $0.value) })
  }
  /// The nodes that stand only behind lazy inputs no node needed in this pass: they did not
  /// run and keep their last value (empty for a graph without lazy inputs).
  ///
  /// - Complexity: O(*n*) for *n* nodes not needed through eager inputs alone (made when asked,
  ///   so a pass costs nothing for them).
  public var notNeeded: [String] {
    let brought = Set(broughtIndices)
    return notEagerIndices.filter { !brought.contains($0) }.map { nodeIDs[Int($0)] }
  }
  /// Lazy nodes (`fallback`) that caught a failure of an input they asked for and did not
  /// fail: node → the caught failure's message.
  public var caught: [String: String] {
    Dictionary(uniqueKeysWithValues: caughtByIndex.map { (nodeIDs[Int($0.key)], $0.value) })
  }
}
