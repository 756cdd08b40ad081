/// The memory budget of intermediate tables (`EngineOptions.tableMemoryBudget`) as a pure
/// state machine: the bytes each node's table outputs hold, their order of use (least recently
/// used first), which nodes' tables were dropped, and counters. No values, no evaluation: the
/// evaluator (`GraphEvaluator+Eviction.swift`) reports uses, asks which nodes to drop, drops
/// their tables and recomputes them on demand, reporting each recomputation back.
///
/// Only *droppable* nodes are tracked: the evaluator reports a use with the node's bytes, and
/// `evictions(canDrop:)` untracks a node it may not drop (observed, failed, …) as it meets it,
/// so the tracked bytes are the intermediate tables the budget caps. A dropped node is marked
/// with its evaluation count at the time: once it runs again (the count moves on) its outputs
/// are real again, and the mark is void without the pass touching the budget.
///
/// Invariants (`_checkInvariants()`): the list from `head` through `next` visits exactly the
/// tracked nodes, `prev` mirrors `next`, `heldBytes` is the sum of their bytes, and a dropped
/// node is not tracked.
struct TableBudget: Sendable {
  /// The most bytes tracked tables may hold after a pass.
  let limit: Int
  /// Bytes of node `n`'s table outputs while tracked (0 otherwise).
  private(set) var bytes: [Int] = []
  /// The use list: `head` is the least recently used node, `tail` the most; -1 when empty.
  private var prev: [Int32] = []
  private var next: [Int32] = []
  private var tracked: [Bool] = []
  private(set) var head: Int32 = -1
  private(set) var tail: Int32 = -1
  /// `dropped[n]`: node `n`'s tables were dropped when its evaluation count was `droppedAt[n]`.
  private(set) var dropped: [Bool] = []
  private var droppedAt: [UInt32] = []
  /// The dropped nodes (for scanning them without a walk over every node).
  private(set) var droppedNodes: Set<Int32> = []
  /// Bytes the tracked tables hold now.
  private(set) var heldBytes = 0
  /// The most `heldBytes` after any pass's evictions.
  private(set) var peakHeldBytes = 0
  /// How many times a node's tables were dropped, and recomputed, since the evaluator was made.
  private(set) var evictionCount = 0
  private(set) var recomputationCount = 0
  /// The nodes dropped after, and recomputed during, the last pass.
  private(set) var lastEvicted: [Int32] = []
  private(set) var lastRecomputed: [Int32] = []

  init(limit: Int, nodeCount: Int) {
    self.limit = max(0, limit)
    grow(to: nodeCount)
  }

  /// Room for `count` nodes (the graph grew).
  mutating func grow(to count: Int) {
    guard count > bytes.count else { return }
    let extra = count - bytes.count
    bytes.append(contentsOf: repeatElement(0, count: extra))
    prev.append(contentsOf: repeatElement(-1, count: extra))
    next.append(contentsOf: repeatElement(-1, count: extra))
    tracked.append(contentsOf: repeatElement(false, count: extra))
    dropped.append(contentsOf: repeatElement(false, count: extra))
    droppedAt.append(contentsOf: repeatElement(0, count: extra))
  }

  /// Whether `node`'s tables are dropped now: marked, and it has not run since (its evaluation
  /// count is `evaluationCount`).
  @inline(__always)
  func isDropped(_ node: Int32, evaluationCount: UInt32) -> Bool {
    dropped[Int(node)] && droppedAt[Int(node)] == evaluationCount
  }

  /// A new pass: the last pass's lists are cleared.
  mutating func beginPass() {
    lastEvicted.removeAll(keepingCapacity: true)
    lastRecomputed.removeAll(keepingCapacity: true)
  }

  /// `node`'s tables, holding `bytes`, were produced or read: it becomes the most recently
  /// used (untracked if it holds no table). A node that ran since it was dropped is no longer
  /// dropped.
  mutating func use(_ node: Int32, bytes newBytes: Int) {
    let index = Int(node)
    if dropped[index] { clearDropped(node) }
    if tracked[index] { unlink(node) }
    guard newBytes > 0 else { return }
    link(node, bytes: newBytes)
  }

  /// Stops tracking `node` (it may not be dropped now, or holds no table).
  mutating func untrack(_ node: Int32) {
    if tracked[Int(node)] { unlink(node) }
  }

  /// The nodes to drop, least recently used first, until the tracked bytes are within the
  /// limit; each is marked dropped at `evaluationCount(n)`. A node `canDrop` refuses is
  /// untracked (it is tracked again at its next use).
  mutating func evictions(canDrop: (Int32) -> Bool, evaluationCount: (Int32) -> UInt32) -> [Int32] {
    var evicted: [Int32] = []
    while heldBytes > limit, head >= 0 {
      let node = head
      unlink(node)
      guard canDrop(node) else { continue }
      dropped[Int(node)] = true
      droppedAt[Int(node)] = evaluationCount(node)
      droppedNodes.insert(node)
      evicted.append(node)
    }
    evictionCount += evicted.count
    lastEvicted.append(contentsOf: evicted)
    peakHeldBytes = max(peakHeldBytes, heldBytes)
    return evicted
  }

  /// `node`, dropped, was recomputed from its inputs and holds `bytes` again.
  mutating func recomputed(_ node: Int32, bytes newBytes: Int) {
    recomputationCount += 1
    lastRecomputed.append(node)
    use(node, bytes: newBytes)
  }

  /// `node` is no longer dropped (it ran, failed, or was recomputed).
  mutating func clearDropped(_ node: Int32) {
    dropped[Int(node)] = false
    droppedNodes.remove(node)
  }

  // MARK: The list

  private mutating func link(_ node: Int32, bytes newBytes: Int) {
    let index = Int(node)
    tracked[index] = true
    bytes[index] = newBytes
    heldBytes += newBytes
    prev[index] = tail
    next[index] = -1
    if tail >= 0 { next[Int(tail)] = node } else { head = node }
    tail = node
  }

  private mutating func unlink(_ node: Int32) {
    let index = Int(node)
    let before = prev[index], after = next[index]
    if before >= 0 { next[Int(before)] = after } else { head = after }
    if after >= 0 { prev[Int(after)] = before } else { tail = before }
    prev[index] = -1
    next[index] = -1
    tracked[index] = false
    heldBytes -= bytes[index]
    bytes[index] = 0
  }

  /// The tracked nodes, least recently used first.
  var useOrder: [Int32] {
    var order: [Int32] = []
    var node = head
    while node >= 0 {
      order.append(node)
      node = next[Int(node)]
    }
    return order
  }

  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    let order = useOrder
    precondition(
      order.count == tracked.filter { $0 }.count && order.allSatisfy { tracked[Int($0)] },
      "Internal inconsistency: the use list disagrees with the tracked marks")
    precondition(order.reduce(0) { $0 + bytes[Int($1)] } == heldBytes, "Internal inconsistency: held bytes are off")
    precondition(
      order.last ?? -1 == tail && order.indices.allSatisfy { $0 == 0 || prev[Int(order[$0])] == order[$0 - 1] },
      "Internal inconsistency: the use list's back links are off")
    precondition(
      droppedNodes.allSatisfy { dropped[Int($0)] && !tracked[Int($0)] }
        && droppedNodes.count == dropped.filter { $0 }.count,
      "Internal inconsistency: a dropped node is tracked, or dropped marks disagree")
    #endif
  }
}
