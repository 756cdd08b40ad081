/// What lazy inputs add to an evaluator's state (`GraphEvaluator+LazyPass.swift`): which lazy
/// inputs each lazy node asked for, which nodes missed a change while not needed, the eagerly
/// needed set (kept while the graph's shape and observers stay as they were), and the current
/// pass's stamps. Empty while the graph has no node with lazy inputs.
///
/// Invariants (`_checkInvariants()`): the per-node arrays have one length; while the cache is
/// current no eagerly needed node is `missed` (a pass computes every one it reaches, and a new
/// eagerly needed set queues those that missed a change).
struct LazyTable: Sendable {
  /// For each node with lazy inputs: the lazy inputs (by port) its last first step asked for,
  /// in any round. A change of such an input makes the node run; a change of another does not.
  var needs: [Int32: [Bool]] = [:]
  /// `missed[n]`: `n` had to run (dirty, or an input it reads changed) in a pass that did not
  /// need it; it runs when a pass needs it again.
  var missed: [Bool] = []
  /// `eager[n]`: `n` is needed through eager inputs alone (from the roots: observed nodes, or
  /// sinks), as of `shapeVersion` and `observerVersion`.
  var eager: [Bool] = []
  /// The eagerly needed nodes with lazy inputs (each takes its first step in every pass).
  var eagerLazy: [Int32] = []
  /// The present nodes that are not eagerly needed (in a demand-driven pass, only necessary
  /// ones): a pass's not-needed nodes are these minus what it brought up.
  var notEager: [Int32] = []
  /// The graph's `shapeVersion` and the observers' version the cache was made for, or `nil`.
  var cacheKey: (shape: UInt64, observers: UInt64, demandDriven: Bool)?
  /// `caughtStamp[n] == pass` iff a lazy node's first step brought `n` up in pass `pass`.
  var caughtStamp: [UInt32] = []
  /// `dirtyStamp[n] == pass` iff `n` was dirty when pass `pass` began.
  var dirtyStamp: [UInt32] = []
  /// The nodes brought up in the current pass.
  var brought: [Int32] = []
  /// The eagerly needed set was made between passes (to decide which live sources start): the
  /// next pass queues its nodes that missed a change, as when it makes the set itself.
  var queuesMissed = false

  /// Room for `count` nodes; every stamp cleared when `clearingStamps` (the pass stamp wrapped).
  mutating func ensureCount(_ count: Int, clearingStamps: Bool) {
    if clearingStamps {
      for index in caughtStamp.indices {
        caughtStamp[index] = 0
        dirtyStamp[index] = 0
      }
    }
    guard missed.count < count else { return }
    let extra = count - missed.count
    missed.append(contentsOf: repeatElement(false, count: extra))
    eager.append(contentsOf: repeatElement(false, count: extra))
    caughtStamp.append(contentsOf: repeatElement(0, count: extra))
    dirtyStamp.append(contentsOf: repeatElement(0, count: extra))
  }

  /// Whether the cache was made for this shape, these observers and this kind of pass.
  func isCurrent(shape: UInt64, observers: UInt64, demandDriven: Bool) -> Bool {
    guard let cacheKey else { return false }
    return cacheKey.shape == shape && cacheKey.observers == observers && cacheKey.demandDriven == demandDriven
  }

  /// Whether `node` missed a change while not needed (false for a node added since).
  @inline(__always)
  func hasMissed(_ node: Int32) -> Bool { Int(node) < missed.count && missed[Int(node)] }

  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    precondition(
      missed.count == eager.count && missed.count == caughtStamp.count && missed.count == dirtyStamp.count,
      "Internal inconsistency: lazy arrays differ in length")
    if cacheKey != nil {
      precondition(
        missed.indices.allSatisfy { !(eager[$0] && missed[$0]) },
        "Internal inconsistency: an eagerly needed node missed a change")
    }
    #endif
  }
}
