// The scheduler: how a pass decides what to run, in which order, and what a failure does.
//
// ALGORITHM. Between passes, edits mark nodes dirty: a node whose kind, params or incoming
// edges changed (`GraphEvaluator.markDirty`). A pass pushes the dirty nodes into a
// `RecomputeQueue` keyed by topological position and pops them in increasing position. A
// popped node runs (its evaluator gets its input values) and its new outputs are compared
// with the previous ones (`Value.isIdentical`: structural equality where `0 == -0` and a NaN
// equals a NaN, so a value that stays NaN is no change). Only if some output — or the node's failure
// state — changed are its successors pushed. A per-node stamp keeps each node in the queue at
// most once per pass. This is the recompute heap of Jane Street's Incremental with value
// cutoff (Salsa's backdating); the queue switches from a heap to a bitset sweep when many
// nodes are queued, because a heap costs ~50 ns a node on big changes and a sweep ~1 ns.
// Two shortcuts keep the queue out of the way where it cannot change the order: when a node
// that changed has a single successor and the queue is empty, that successor runs next
// without being pushed and popped (oneTBB's *scheduler bypass*: a chain costs no queue
// operation); and a pass that begins with every node queued (the first evaluation,
// `invalidateAll`) pushes nothing, since every successor is still waiting in the queue.
//
// ORDERING. Positions come from `TopologicalOrder`, kept incrementally as edges are added (a
// two-way search that moves the smaller side, over gapped labels), so no pass re-sorts the graph. Every edge goes from a smaller to a larger
// position, so when a node is popped every predecessor that will change in this pass already
// has: each node runs at most once per pass, after all its inputs are final (glitch-free).
// Nodes run in the same order whatever the thread count, so results never depend on it.
//
// CONCURRENCY. Cheap nodes run inline on the pass's task: a task costs more than arithmetic
// (level-parallel W3 ran 3× slower than serial). Expensive nodes (`NodeCost.expensive`) run
// in child tasks of a task group while the pass keeps popping: a node whose input comes from a
// node still running (or waiting) waits itself, and pushes its successors speculatively so
// they wait behind it; when the running node finishes, its waiters are released in position
// order. A speculative node whose inputs turn out unchanged is skipped without running. See
// `GraphEvaluator+Concurrency.swift`.
//
// FAILURE SEMANTICS. Errors are values. A node whose evaluator throws fails with the error's
// description; its outputs keep their previous values. A node with a failed input does not
// run: it fails with "upstream error from <root>", naming the node where the failure started,
// not its direct parent. Both count as a change of the node's state, so descendants are
// revisited; unrelated branches finish normally. When the root recovers, its descendants run
// again. A cancelled pass (superseded by a newer revision) stops between nodes; the nodes it
// did not reach stay dirty and are carried into the next pass, so nothing is lost and no value
// of the older revision is published as the newer one's.
//
// STOPPING. A serial pass consults `shouldStop` by count and by time (`StopPolling`): every
// node while nodes are slow, every 64th while they take under 50 µs together, so a superseded
// chain of slow nodes declared cheap stops within about a node. Whatever the polling, a pass
// that completes after a newer change arrived publishes nothing under `.replaceRunningPass`
// (`EngineStateMachine.passFinished`): no value of an older revision ever appears after a newer
// revision was asked for. A cancelled report carries the revision the pass was computing.
//
// LAYOUT AND THE TYPED PATH. What a pass touches is packed (`EvaluationGraph`): a 48-byte
// record per node, inputs and successors as flat runs, value slots of an 8-byte payload and a tag, read through a
// local copy of the storage's columns so the loop makes no uniqueness or bounds check per
// access. A node whose kind offers a `ScalarEvaluation` (and whose inputs hold numbers) runs
// without `Value`s: its inputs are read unboxed from their slots, the function is called, and
// the result is compared with the old output in place (`runScalar`). Everything else — and any
// node while some node is failed or pending — takes the general path (`run`), which gathers
// `Value`s and calls the node's `NodeEvaluator`. Both give the same values and reports.
//
// WAKE-UPS. `FlowEngine`'s shared state is one pure state machine (`EngineStateMachine`): the
// runner's last step, becoming idle, settles every waiter whose revision is complete, so an
// `evaluate()` that registers after a publication but before the runner stops is never lost.
//
// SYNCHRONOUS PASSES. Waking the runner task and then the awaiting task costs more than a
// small pass (W3b: ~0.5 µs of evaluation, ~10 µs end to end through the runner). So a store
// change reaching an *idle* engine with nothing else pending runs its pass on the thread that
// delivered it — `updateNode`'s own thread, the main actor's in an app — when it is cheap: no
// expensive or live node in the graph (child tasks and emissions stay with the runner), no
// reload, at most `EngineOptions.synchronousPassLimit` items and dirty nodes. It goes through
// the same transitions as the runner's passes (`EngineStateMachine+Synchronous.swift`): the
// evaluator is handed over, evaluated outside both the store's lock and the engine's, and
// moved back with the publication, so values are published before `updateNode` returns and
// the `evaluate()` after it answers from the completed revision without suspending.
// Re-entrancy is bounded by construction: the store delivers changes one at a time (a change
// made by another observer, or another thread, meanwhile is delivered after this pass returns,
// by the same loop, not by recursion), and inputs arriving during the pass (triggers,
// observers) only queue and start the runner when it ends. A synchronous pass is never
// superseded — no newer revision can reach the engine while it runs — but it has a budget
// (`synchronousPassBudget`, polled through the same `shouldStop` seam as supersession): past
// it the pass stops between nodes and hands its dirty rest to the runner, whose pass continues
// the same revision and publishes one report for both parts. Shutdown stops it the same way.
// Publications stay in revision order because the machine admits one pass at a time
// (synchronous or runner) and the streams are fed under the engine's lock.

import FlowGraph

extension GraphEvaluator {
  /// Runs one pass: recomputes the dirty nodes and, through changed outputs, their descendants.
  ///
  /// - Parameter shouldStop: checked between nodes; returning `true` stops the pass, leaving
  ///   the unreached nodes dirty for the next one (the report says `wasCancelled`).
  /// - Returns: what ran, what was cut off, what failed.
  /// - Complexity: O(*k* log *k*) for *k* affected nodes while few are queued, O(*k* + *p*/64)
  ///   for big changes spanning *p* positions.
  /// - Parameter revision: the revision the pass brings the values up to (default: one more
  ///   than the last completed pass).
  @discardableResult
  public mutating func evaluate(revision newRevision: Int? = nil, shouldStop: () -> Bool = { false }) -> EvaluationReport {
    let clock = ContinuousClock()
    let start = clock.now
    var log = startLog(began: start)
    var scratch = takeScratch()
    progress?.nodesTotal.store(pendingDirty.count, ordering: .relaxed)
    let everyNodeQueued = beginPass(serial: true)
    var stopped = false
    var poll = StopPolling(start: start)
    let typed = options.usesScalarEvaluation && !options.timesEveryNode && progress == nil
    // Stable for the whole pass: a pass never grows the columns (`UnsafeGraphStorage`).
    let columns = graph.storage.columns
    // The node to run next without the queue (scheduler bypass), or -1.
    var next: Int32 = -1
    // Labels are node indices (a document listed in order): no lookup per node.
    let identity = graph.order.isIdentity
    while true {
      let node: Int32
      if next >= 0 {
        node = next
        next = -1
      } else {
        guard let position = queue.popMin() else { break }
        node = identity ? position : graph.order.nodeAt[Int(position)]
      }
      if poll.isDue(clock) && shouldStop() {
        stopped = true
        requeueRemaining(after: node)
        break
      }
      if typed && live.emissionPass != pass {
        let outcome = runScalar(node, columns, log: &log)
        if outcome == .changed {
          next = propagateChange(of: node, columns, everyNodeQueued: everyNodeQueued)
          continue
        }
        if outcome == .unchanged { continue }
      }
      let forced = isForced(node)
      if run(node, forced: forced, scratch: &scratch, log: &log) || (forced && isComputed(node)) {
        next = propagateChange(of: node, columns, everyNodeQueued: everyNodeQueued, forced: forced)
      }
    }
    self.scratch = scratch
    lastRanCount = log.ran.count
    finishLivePass(stopped: stopped)
    settleRefreshing()
    let target = newRevision ?? revision + 1
    if !stopped { revision = target }
    let report = makeReport(log, revision: target, cancelled: stopped, duration: clock.now - start)
    ranList.releaseIfLarge()
    cutOffList.releaseIfLarge()
    return report
  }

  /// The log of a pass starting at `start`, on the evaluator's lists.
  mutating func startLog(began start: ContinuousClock.Instant) -> PassLog {
    ranList.reset(expecting: lastRanCount)
    cutOffList.reset(expecting: lastRanCount)  // a cut-off node ran: never more
    return PassLog(began: start, ran: ranList, cutOff: cutOffList)
  }

  /// Moves the scratch buffers out of `self`, so the hot loop owns them uniquely and can pass
  /// them to evaluators without overlapping access to `self`.
  mutating func takeScratch() -> EvaluationScratch {
    let taken = scratch
    scratch = EvaluationScratch()
    return taken
  }

  /// Starts a pass: a new stamp, unique storage, and the pending dirty nodes in the queue.
  ///
  /// - Parameter serial: the pass is serial (`evaluate`): many dirty nodes go straight into
  ///   the queue's bitset without stamping their records. A later push of one of them (its
  ///   stamp is old) finds its bit set and changes nothing, and a serial pass never pushes a
  ///   node it already popped (every successor lies above the node that pushes it), so the
  ///   bitset deduplicates by itself. (The concurrent pass re-pushes released nodes and keeps
  ///   the stamps.)
  /// - Returns: whether every node of the graph was queued that way (then every successor of
  ///   a node that runs is still queued, and nothing needs pushing).
  @discardableResult
  mutating func beginPass(serial: Bool = false) -> Bool {
    graph.makeUnique()
    pass &+= 1
    if pass == 0 {
      for node in 0..<graph.nodeCount {
        graph.storage.records[node].queuedStamp = 0
        graph.storage.records[node].changedStamp = 0
      }
      pass = 1
    }
    queue.ensureCapacity(graph.order.labelCapacity)
    if serial && pendingDirty.count > queue.heapLimit && queue.isEmpty {
      // `pendingDirty` has no duplicates: it lists every node iff it has every index, or as
      // many entries as there are present nodes and none of them removed.
      let everyNode = pendingDirty.count == graph.nodeCount
        || (pendingDirty.count == graph.nodeCount - graph.removedCount
            && pendingDirty.allSatisfy { !graph.flags(of: $0).contains(.removed) })
      if everyNode && graph.removedCount == 0 {
        // Every label that holds a node, a word of the bitset at a time.
        dirtyMark = [Bool](repeating: false, count: dirtyMark.count)
        queue.pushAll(labelsOf: graph.order.nodeAt, hole: TopologicalOrder.hole)
      } else {
        queue.beginBitset()
        for node in pendingDirty {
          dirtyMark[Int(node)] = false
          queue.pushBit(graph.order.position[Int(node)])
        }
      }
      pendingDirty.removeAll(keepingCapacity: true)
      if live.emission != nil { applyPendingEmission() }
      return everyNode
    }
    for node in pendingDirty {
      dirtyMark[Int(node)] = false
      enqueue(node)
    }
    pendingDirty.removeAll(keepingCapacity: true)
    if live.emission != nil { applyPendingEmission() }
    return false
  }

  @inline(__always)
  mutating func enqueue(_ node: Int32) {
    let records = graph.storage.records
    if records[Int(node)].queuedStamp != pass {
      records[Int(node)].queuedStamp = pass
      queue.push(graph.order.isIdentity ? node : graph.order.position[Int(node)])
    }
  }

  /// After a stop: the popped node and everything still queued become dirty again.
  mutating func requeueRemaining(after node: Int32) {
    markDirty(node)
    while let position = queue.popMin() { markDirty(graph.order.nodeAt[Int(position)]) }
  }

  /// Runs `node` inline if its inputs are sound. Returns whether its outputs or failure state
  /// changed (so its successors must be visited).
  ///
  /// A node skipped as unnecessary (demand-driven passes) is marked stale and reports a change
  /// the first time, so its descendants (unnecessary as well) are marked stale too; a node
  /// with a pending input becomes pending; live nodes go to `runLive`.
  /// Not inlined: the general path costs far more than a call, and keeping it out of the pass
  /// loop leaves room for the typed path to be inlined there.
  @inline(never)
  mutating func run(_ node: Int32, forced: Bool = false, scratch: inout EvaluationScratch, log: inout PassLog) -> Bool {
    let index = Int(node)
    let flags = graph.record(node).flags
    if flags & EvaluationGraph.Flags.inert.rawValue != 0 { return false }
    if options.demandDriven && demandCount[index] == 0 {
      // Stale, and so is every descendant (unnecessary too): the first time, visit them.
      let wasStale = staleMark[index]
      staleMark[index] = true
      return !wasStale
    }
    if flags & EvaluationGraph.Flags.live.rawValue != 0 { return runLive(node, forced: forced, scratch: &scratch, log: &log) }
    if failedCount > 0, let root = failedInputRoot(of: node) {
      return recordFailure(node, root: root, message: nil, log: &log)
    }
    if pendingCount > 0 && hasPendingInput(node) { return recordPending(node) }
    gatherInputs(of: node, into: &scratch)
    var thrown: (any Error)?
    if let progress { progress.runningNode.store(index, ordering: .relaxed) }
    defer { if let progress { progress.nodesDone.add(1, ordering: .relaxed) } }
    let evaluator = graph.evaluator(of: node)
    if options.timesEveryNode {
      let clock = ContinuousClock()
      let start = clock.now
      do { try evaluator.evaluate(NodeInputs(scratch.inputs), &scratch.outputs) } catch { thrown = error }
      log.durations[node] = clock.now - start
      log.starts[node] = start - log.began
    } else {
      do { try evaluator.evaluate(NodeInputs(scratch.inputs), &scratch.outputs) } catch { thrown = error }
    }
    log.ran.append(node)
    graph.storage.records[index].evaluationCount &+= 1
    if let thrown { return recordFailure(node, root: node, message: Self.message(of: thrown), log: &log) }
    if let violation = limits.violation(in: scratch.outputs.values, expensive: flags & EvaluationGraph.Flags.expensive.rawValue != 0) {
      return recordFailure(node, root: node, message: violation.message, log: &log)
    }
    return storeOutputs(of: node, scratch.outputs.values, log: &log)
  }

  /// Fills the scratch inputs with the node's input values and the scratch outputs with its
  /// current outputs, reusing the buffers.
  @inline(__always)
  func gatherInputs(of node: Int32, into scratch: inout EvaluationScratch) {
    let columns = graph.storage.columns
    let record = columns.records[Int(node)]
    let inputCount = Int(record.inputCount)
    EvaluationScratch.resize(&scratch.inputs, to: inputCount)
    let inputStart = Int(record.inputStart)
    for port in 0..<inputCount { scratch.inputs[port] = graph.value(inSlot: Int(columns.inputSources[inputStart + port])) }
    let outputCount = Int(record.outputCount)
    EvaluationScratch.resize(&scratch.outputs.values, to: outputCount)
    let outputStart = Int(record.outputStart)
    for port in 0..<outputCount { scratch.outputs.values[port] = graph.value(inSlot: outputStart + port) }
  }

  /// Moves new outputs into the node's output slots. Returns whether anything changed.
  @inline(__always)
  mutating func storeOutputs(of node: Int32, _ outputs: [Value], log: inout PassLog) -> Bool {
    let index = Int(node)
    var changed = false
    if graph.record(node).failure >= 0 {
      clearFailure(node)
      changed = true
    }
    if pendingMark[index] {
      clearPending(node)
      changed = true
    }
    let record = graph.record(node)
    for port in 0..<min(outputs.count, Int(record.outputCount)) where graph.store(outputs[port], inSlot: Int(record.outputStart) + port) {
      changed = true
    }
    if !changed { log.cutOff.append(node) }
    return changed
  }

  /// The root failure among the node's inputs (the first failed input in port order).
  func failedInputRoot(of node: Int32) -> Int32? {
    for port in 0..<graph.inputCount(of: node) {
      let source = graph.sourceNode(of: node, input: port)
      if source >= 0 && graph.record(source).failure >= 0 { return graph.record(source).failure }
    }
    return nil
  }

  /// Marks `node` failed with root cause `root`. Returns whether its failure state changed.
  mutating func recordFailure(_ node: Int32, root: Int32, message: String?, log: inout PassLog) -> Bool {
    let previous = graph.record(node).failure
    if previous < 0 { failedCount += 1 }
    graph.storage.records[Int(node)].failure = root
    var changed = previous != root
    if let message {
      changed = changed || failureMessage[node] != message
      failureMessage[node] = message
    } else {
      failureMessage[node] = nil
    }
    log.failed.append(node)
    return changed
  }

  mutating func clearFailure(_ node: Int32) {
    graph.storage.records[Int(node)].failure = -1
    failureMessage[node] = nil
    failedCount -= 1
  }

  static func message(of error: any Error) -> String {
    switch error {
    case let error as NodeError: error.message
    case is CancellationError: "cancelled"
    default: String(describing: error)
    }
  }

  /// The report of a pass that brought (or, cancelled, was bringing) the values to `revision`.
  func makeReport(_ log: PassLog, revision: Int, cancelled: Bool, duration: Duration) -> EvaluationReport {
    EvaluationReport(revision: revision, wasCancelled: cancelled, duration: duration, nodeIDs: graph.ids,
                     ran: log.ran.nodes, cutOff: log.cutOff.nodes, failed: log.failed,
                     failureMessages: log.failed.map { failureDescription(of: $0) ?? "failed" },
                     durations: log.durations, starts: log.starts)
  }
}

/// When a serial pass consults `shouldStop`: by count and by elapsed time.
///
/// Checking every node costs a call per node; checking every 64th lets a superseded pass of
/// slow nodes declared cheap run on for 64 of them. So the stride adapts: it starts at 1 and
/// doubles up to 64 while the nodes between two checks took under 50 µs, and drops back to 1
/// as soon as they took longer. A pass is thus told to stop within about one node's time, or
/// 50 µs, whichever is longer, for the price of a clock read every 64 cheap nodes.
struct StopPolling {
  private var stride = 1
  private var countdown = 1
  private var lastCheck: ContinuousClock.Instant

  init(start: ContinuousClock.Instant) { lastCheck = start }

  /// Whether to consult `shouldStop` before the next node.
  @inline(__always)
  mutating func isDue(_ clock: ContinuousClock) -> Bool {
    countdown &-= 1
    guard countdown == 0 else { return false }
    let now = clock.now
    stride = now - lastCheck > .microseconds(50) ? 1 : min(64, stride &* 2)
    lastCheck = now
    countdown = stride
    return true
  }
}

/// Reused buffers for one node's inputs and outputs.
struct EvaluationScratch: Sendable {
  var inputs: [Value] = []
  var outputs = NodeOutputs([])

  @inline(__always)
  static func resize(_ values: inout [Value], to count: Int) {
    if values.count < count {
      values.append(contentsOf: repeatElement(.integer(0), count: count - values.count))
    } else if values.count > count {
      values.removeLast(values.count - count)
    }
  }
}

/// What a pass did, by node index, while it runs.
struct PassLog {
  /// When the pass started (node start times are offsets from it).
  var began: ContinuousClock.Instant


  var ran: NodeList
  var cutOff: NodeList
  var failed: [Int32] = []
  var durations: [Int32: Duration] = [:]
  var starts: [Int32: Duration] = [:]
}
