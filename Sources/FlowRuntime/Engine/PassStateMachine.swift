/// The decisions of one pass, as a pure state machine: which node comes next, whether it runs
/// inline, in a child task, fails without running, or must wait; what a node's completion
/// releases; what a stopped pass leaves to the next. No threads, no clocks, no node
/// evaluation: an executor performs the actions (`GraphEvaluator+Concurrency.swift`) and
/// reports each outcome back, and tests replay any interleaving of completions as plain calls.
/// What the machine does with a node that must run is `NodeDisposition`'s, the rules the serial
/// and lazy passes follow too (see "The pass machine and its executors" in
/// `Documentation/Evaluation.md`).
///
/// The pass: nodes are queued by topological position and popped in increasing order. A node
/// with an input from a node still running (or waiting) *waits*, and its successors are queued
/// speculatively behind it; when the last such input completes it is *released* and queued
/// again. A popped node is settled only if it *must* run: it was dirty or an input changed in
/// this pass (cutoff); then its disposition decides: an inert node finishes unchanged, a node
/// with a failed input fails with that input's root instead of running, an expensive node that
/// runs goes to a child task, and the rest are settled inline by the executor.
///
/// Invariants (`_checkInvariants()`): between passes every node is `idle`, the queue is empty,
/// nothing runs and nothing is handed out; during a pass `running` counts the `running` nodes
/// and a `waiting` node's `waitCount` is its number of input edges from unfinished nodes.
struct PassStateMachine: Sendable {
  /// What the executor does next.
  enum Action: Equatable, Sendable {
    /// Run `node` on the pass's own task, then report `completed(node, _)`.
    case runInline(Int32)
    /// Run `node` in a child task; report `completed(node, _)` when it finishes.
    case spawn(Int32)
    /// `node` does not run: record it failed with the upstream `root`, then report
    /// `completed(node, _)` (`.failed(root:)` if its failure changed, else `.unchanged`).
    case fail(Int32, root: Int32)
    /// Wait for a child task to finish and report it.
    case await
    /// The pass is complete.
    case done
  }

  /// What became of a node the machine handed out.
  enum Outcome: Equatable, Sendable {
    /// Its outputs (or its state of pendency or staleness) changed: successors must run.
    case changed
    /// Nothing changed: successors need not run on its account (cutoff).
    case unchanged
    /// It failed, or failed from a different root, with root cause `root`: successors must
    /// run (and fail with that root).
    case failed(root: Int32)

    /// Whether the node's successors must run on its account.
    var propagates: Bool { self != .unchanged }
  }

  /// Where a node stands in the current pass (all `idle` between passes).
  enum NodePhase: UInt8, Sendable {
    case idle
    /// Popped while an input was unfinished; `waitCount` counts the unfinished input edges.
    case waiting
    /// Running in a child task.
    case running
    /// Was waiting, its inputs are final, and it is queued again.
    case released
  }

  /// The pass's stamp: `queuedStamp[n] == stamp` iff `n` was queued in this pass,
  /// `mustRunStamp[n] == stamp` iff it must run (dirty, or an input changed).
  private(set) var stamp: UInt32 = 0
  private(set) var phase: [NodePhase] = []
  private(set) var waitCount: [Int32] = []
  private var queuedStamp: [UInt32] = []
  private var mustRunStamp: [UInt32] = []
  private var queue = RecomputeQueue(capacity: 0)
  /// Nodes that left `idle` in this pass.
  private var touched: [Int32] = []
  /// Nodes in child tasks now.
  private(set) var running = 0
  /// At most this many child tasks at once.
  private(set) var limit = 1
  /// An expensive node popped while `limit` tasks ran: spawned once one finishes, or -1.
  private var deferred: Int32 = -1
  /// The node handed out to run inline (or fail) whose completion is awaited, or -1.
  private(set) var inline: Int32 = -1

  /// Bytes the machine's buffers hold.
  var allocatedBytes: Int {
    phase.capacity + waitCount.capacity * 4 + queuedStamp.capacity * 4 + mustRunStamp.capacity * 4
      + queue.allocatedBytes + touched.capacity * 4
  }

  /// Starts a pass over `dirty` (nodes that must run), with at most `limit` child tasks.
  mutating func begin<Graph: PassGraph>(dirty: [Int32], limit: Int, in graph: Graph) {
    precondition(
      running == 0 && inline < 0 && deferred < 0 && queue.isEmpty, "Internal inconsistency: a pass began inside another"
    )
    self.limit = max(1, limit)
    let count = graph.passNodeCount
    if phase.count < count {
      phase.append(contentsOf: repeatElement(.idle, count: count - phase.count))
      waitCount.append(contentsOf: repeatElement(0, count: count - waitCount.count))
      queuedStamp.append(contentsOf: repeatElement(0, count: count - queuedStamp.count))
      mustRunStamp.append(contentsOf: repeatElement(0, count: count - mustRunStamp.count))
    }
    stamp &+= 1
    if stamp == 0 {
      for index in queuedStamp.indices {
        queuedStamp[index] = 0
        mustRunStamp[index] = 0
      }
      stamp = 1
    }
    queue.ensureCapacity(graph.passPositionCapacity)
    for node in dirty {
      mustRunStamp[Int(node)] = stamp
      enqueue(node, graph)
    }
  }

  /// The next thing to do. After `.runInline` or `.fail`, report the node's completion before
  /// asking again; after `.spawn`, ask again at once (the node runs meanwhile).
  mutating func next<Graph: PassGraph>(in graph: Graph) -> Action {
    precondition(inline < 0, "Internal inconsistency: asked for the next node before the inline one completed")
    if deferred >= 0 {
      guard running < limit else { return .await }
      let node = deferred
      deferred = -1
      return spawn(node, graph)
    }
    while let position = queue.popMin() {
      let node = graph.passNode(at: position)
      let index = Int(node)
      if phase[index] == .idle {
        let unfinished = unfinishedInputCount(of: node, graph)
        if unfinished > 0 {
          touched.append(node)
          phase[index] = .waiting
          waitCount[index] = unfinished
          enqueueSuccessors(of: node, graph, mustRun: false)
          continue
        }
      }
      // Cutoff: a node queued speculatively whose inputs did not change does not run.
      guard mustRunStamp[index] == stamp else {
        _ = release(node, changed: false, graph)
        continue
      }
      switch NodeDisposition(of: node, in: graph) {
      case .inert:
        _ = release(node, changed: false, graph)
        continue
      case .fail(let root):
        inline = node
        return .fail(node, root: root)
      case .run where graph.passRole(of: node) == .expensive:
        guard running < limit else {
          deferred = node
          return .await
        }
        return spawn(node, graph)
      case .unnecessary, .notNeeded, .lazy, .live, .pending, .run:
        // Settled inline by the executor (`GraphEvaluator.run`), which follows the same rules.
        inline = node
        return .runInline(node)
      }
    }
    if running > 0 { return .await }
    for node in touched { phase[Int(node)] = .idle }
    touched.removeAll(keepingCapacity: true)
    return .done
  }

  /// The node handed out (inline, failed or spawned) is final with `outcome`. Returns the
  /// nodes its completion released (each was waiting on it and has no other unfinished input),
  /// queued again in the machine.
  @discardableResult
  mutating func completed<Graph: PassGraph>(_ node: Int32, _ outcome: Outcome, in graph: Graph) -> [Int32] {
    if phase[Int(node)] == .running {
      running -= 1
    } else {
      precondition(inline == node, "Internal inconsistency: a completion for a node not handed out")
      inline = -1
    }
    return release(node, changed: outcome.propagates, graph)
  }

  /// Stops the pass: child tasks' results are discarded and `abandoned` (a node handed out
  /// but not run) is not run. Returns the nodes the next pass must run: every node that had
  /// to run in this pass and did not finish. The machine is idle afterwards.
  mutating func stop<Graph: PassGraph>(abandoning abandoned: Int32?, in graph: Graph) -> [Int32] {
    var rerun: [Int32] = []
    func keep(_ node: Int32) {
      if mustRunStamp[Int(node)] == stamp { rerun.append(node) }
    }
    if let abandoned { keep(abandoned) }
    if deferred >= 0 { keep(deferred) }
    while let position = queue.popMin() { keep(graph.passNode(at: position)) }
    for node in touched where phase[Int(node)] != .idle {
      keep(node)
      phase[Int(node)] = .idle
    }
    touched.removeAll(keepingCapacity: true)
    running = 0
    deferred = -1
    inline = -1
    return rerun
  }

  // MARK: Transitions

  private mutating func spawn<Graph: PassGraph>(_ node: Int32, _ graph: Graph) -> Action {
    let index = Int(node)
    if phase[index] == .idle { touched.append(node) }
    phase[index] = .running
    running += 1
    enqueueSuccessors(of: node, graph, mustRun: false)
    return .spawn(node)
  }

  /// `node` is final for this pass: a change makes its successors must-run; if it was waiting,
  /// running or released, the nodes waiting on it count one input fewer.
  private mutating func release<Graph: PassGraph>(_ node: Int32, changed: Bool, _ graph: Graph) -> [Int32] {
    let index = Int(node)
    if changed { enqueueSuccessors(of: node, graph, mustRun: true) }
    guard phase[index] != .idle else { return [] }
    phase[index] = .idle
    var released: [Int32] = []
    for offset in 0..<graph.passSuccessorCount(of: node) {
      let successor = Int(graph.passSuccessor(offset, of: node))
      guard phase[successor] == .waiting else { continue }
      waitCount[successor] -= 1
      if waitCount[successor] == 0 {
        phase[successor] = .released
        queue.push(graph.passPosition(of: Int32(successor)))
        released.append(Int32(successor))
      }
    }
    return released
  }

  private mutating func enqueueSuccessors<Graph: PassGraph>(of node: Int32, _ graph: Graph, mustRun: Bool) {
    for offset in 0..<graph.passSuccessorCount(of: node) {
      let successor = graph.passSuccessor(offset, of: node)
      if mustRun { mustRunStamp[Int(successor)] = stamp }
      enqueue(successor, graph)
    }
  }

  private mutating func enqueue<Graph: PassGraph>(_ node: Int32, _ graph: Graph) {
    guard queuedStamp[Int(node)] != stamp else { return }
    queuedStamp[Int(node)] = stamp
    queue.push(graph.passPosition(of: node))
  }

  /// How many input edges of `node` come from nodes waiting or running in this pass.
  private func unfinishedInputCount<Graph: PassGraph>(of node: Int32, _ graph: Graph) -> Int32 {
    var count: Int32 = 0
    for port in 0..<graph.passInputCount(of: node) {
      let source = graph.passInputSource(port, of: node)
      if source >= 0 && phase[Int(source)] != .idle { count += 1 }
    }
    return count
  }
}

extension PassStateMachine {
  /// Traps if the machine's bookkeeping is inconsistent: `running` counts the running nodes,
  /// a waiting node counts at least one unfinished input, and between passes (`betweenPasses`)
  /// everything is idle. Only with `FLOW_INTERNAL_CHECKS`.
  func _checkInvariants(betweenPasses: Bool) {
    #if FLOW_INTERNAL_CHECKS
    precondition(
      phase.count == waitCount.count && phase.count == queuedStamp.count && phase.count == mustRunStamp.count,
      "Internal inconsistency: per-node pass arrays differ in length")
    precondition(phase.filter { $0 == .running }.count == running, "Internal inconsistency: the running count is off")
    precondition(
      phase.indices.allSatisfy { phase[$0] != .waiting || waitCount[$0] > 0 },
      "Internal inconsistency: a node waits on nothing")
    precondition(touched.allSatisfy { Int($0) < phase.count }, "Internal inconsistency: a touched node out of range")
    if betweenPasses {
      precondition(
        phase.allSatisfy { $0 == .idle } && touched.isEmpty && queue.isEmpty && running == 0
          && deferred < 0 && inline < 0,
        "Internal inconsistency: a node is left waiting or running between passes")
    }
    #endif
  }
}
