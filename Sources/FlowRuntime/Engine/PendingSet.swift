/// The nodes waiting for a live source's first emission: no value, not run (Reference.md, "Live nodes"). A mark
/// per node and their count, so a pass with none skips every check.
///
/// Invariants (`_checkInvariants()`): `count` is the number of set marks.
struct PendingSet: Sendable {
  /// `marks[n]`: node `n` is pending.
  var marks: [Bool]
  var count = 0

  init(nodeCount: Int) { marks = [Bool](repeating: false, count: nodeCount) }

  /// Marks `node` pending; returns whether it was not.
  mutating func insert(_ node: Int32) -> Bool {
    guard !marks[Int(node)] else { return false }
    marks[Int(node)] = true
    count += 1
    return true
  }

  mutating func remove(_ node: Int32) {
    guard marks[Int(node)] else { return }
    marks[Int(node)] = false
    count -= 1
  }

  func contains(_ node: Int32) -> Bool { marks[Int(node)] }

  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    precondition(marks.filter { $0 }.count == count, "Internal inconsistency: pending count is off")
    #endif
  }
}
