/// The failed nodes' bookkeeping beside their roots (`NodeRecord.failure`, in the graph's
/// records, where a pass reads them): each own failure's message and how many nodes are failed,
/// so a pass with no failure skips every failure check.
///
/// Invariants (`_checkInvariants()`; `GraphEvaluator._checkInvariants()` checks `count` against
/// the records): `count >= 0`; a message only for a failed node, keyed by its index.
struct FailureTable: Sendable {
  /// The own error message of each node that failed by itself.
  var messages: [Int32: String] = [:]
  /// How many nodes are failed (by themselves or upstream).
  var count = 0

  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    precondition(count >= 0 && messages.count <= count, "Internal inconsistency: failed count is off")
    precondition(messages.keys.allSatisfy { $0 >= 0 }, "Internal inconsistency: a message for no node")
    #endif
  }
}
