/// The nodes to run in the next pass (`GraphEvaluator`'s dirty set): a list, for a pass to
/// queue, and a mark per node, so marking a node twice lists it once.
///
/// Invariants (`_checkInvariants()`): `marks[n]` iff `n` is in `list`, and `list` has no
/// duplicates.
struct DirtySet: Sendable {
  /// The dirty nodes, in the order they were marked.
  var list: [Int32]
  /// `marks[n]` iff node `n` is listed.
  var marks: [Bool]

  /// Every one of `count` nodes dirty (a new evaluator).
  init(everyNodeOf count: Int) {
    list = Array(0..<Int32(count))
    marks = [Bool](repeating: true, count: count)
  }

  var isEmpty: Bool { list.isEmpty }

  /// Marks `node` dirty; does nothing if it is.
  @inline(__always)
  mutating func insert(_ node: Int32) {
    guard !marks[Int(node)] else { return }
    marks[Int(node)] = true
    list.append(node)
  }

  /// Room for a node appended to the graph (not dirty).
  mutating func appendNode() { marks.append(false) }

  /// Marks every node of `0..<marks.count` dirty without reading any record.
  mutating func insertEveryNode() {
    list.reserveCapacity(marks.count)
    for node in 0..<marks.count where !marks[node] { list.append(Int32(node)) }
    marks = [Bool](repeating: true, count: marks.count)
  }

  /// Empties the set and returns what it held (a pass takes the dirty nodes).
  mutating func takeAll() -> [Int32] {
    let taken = list
    for node in taken { marks[Int(node)] = false }
    list.removeAll(keepingCapacity: true)
    return taken
  }

  /// Empties the set where its every mark is known to be set: clears the marks in one sweep.
  mutating func removeAllClearingEveryMark() {
    marks = [Bool](repeating: false, count: marks.count)
    list.removeAll(keepingCapacity: true)
  }

  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    precondition(
      marks.filter { $0 }.count == list.count && list.allSatisfy { marks[Int($0)] },
      "Internal inconsistency: dirty marks disagree with the dirty list")
    #endif
  }
}
