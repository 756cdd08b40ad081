/// What lazy inputs add to an evaluator's state (`GraphEvaluator+LazyPass.swift`): which lazy
/// inputs each lazy node asked for, which nodes missed a change while not needed, and the
/// current pass's stamps. Sized to the graph at each lazy pass's start; empty while the graph
/// has no node with lazy inputs.
///
/// Invariants (`_checkInvariants()`): the per-node arrays have one length; between passes a
/// node that is `missed` was neither eagerly needed nor brought up in the last pass.
struct LazyTable: Sendable {
  /// For each node with lazy inputs: the lazy inputs (by port) its last first step asked for,
  /// in any round. A change of such an input makes the node run; a change of another does not.
  var needs: [Int32: [Bool]] = [:]
  /// `missed[n]`: `n` had to run (dirty, or an input it reads changed) in a pass that did not
  /// need it; it runs when a pass needs it again.
  var missed: [Bool] = []
  /// `eagerStamp[n] == pass` iff `n` is needed through eager inputs alone in pass `pass`.
  var eagerStamp: [UInt32] = []
  /// `caughtStamp[n] == pass` iff a lazy node's first step brought `n` up in pass `pass`.
  var caughtStamp: [UInt32] = []
  /// `dirtyStamp[n] == pass` iff `n` was dirty when pass `pass` began.
  var dirtyStamp: [UInt32] = []

  /// Room for `count` nodes; every stamp cleared when `clearingStamps` (the pass stamp wrapped).
  mutating func ensureCount(_ count: Int, clearingStamps: Bool) {
    if clearingStamps {
      for index in eagerStamp.indices {
        eagerStamp[index] = 0
        caughtStamp[index] = 0
        dirtyStamp[index] = 0
      }
    }
    guard missed.count < count else { return }
    let extra = count - missed.count
    missed.append(contentsOf: repeatElement(false, count: extra))
    eagerStamp.append(contentsOf: repeatElement(0, count: extra))
    caughtStamp.append(contentsOf: repeatElement(0, count: extra))
    dirtyStamp.append(contentsOf: repeatElement(0, count: extra))
  }

  /// Whether `node` missed a change while not needed (false for a node added since).
  @inline(__always)
  func hasMissed(_ node: Int32) -> Bool { Int(node) < missed.count && missed[Int(node)] }

  func _checkInvariants(pass: UInt32) {
    #if FLOW_INTERNAL_CHECKS
    precondition(missed.count == eagerStamp.count && missed.count == caughtStamp.count && missed.count == dirtyStamp.count,
                 "Internal inconsistency: lazy arrays differ in length")
    #endif
  }
}
