// The serial pass: a specialized executor of the pass's rules (`PassStateMachine` decides the
// concurrent pass). The design — algorithm, ordering, node state and failures, demand, stopping,
// concurrency, the pass machine and its executors, the typed path, wake-ups and synchronous
// passes — is explained in `Documentation/Evaluation.md`.

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
  public mutating func evaluate(revision newRevision: Int? = nil, shouldStop: () -> Bool = { false })
    -> EvaluationReport
  {
    if graph.lazyCount > 0 { return evaluateLazily(revision: newRevision, shouldStop: shouldStop) }
    let clock = ContinuousClock()
    let start = clock.now
    var log = startLog(began: start)
    var scratch = takeScratch()
    progress?.nodesTotal.store(dirtySet.list.count, ordering: .relaxed)
    if tableBudget != nil { prepareTableBudgetPass() }
    let everyNodeQueued = beginPass(serial: true)
    if options.releasesConsumedTables { prepareReleases() }
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
    return finishPass(&log, stopped: stopped, revision: newRevision, clock: clock, start: start)
  }

  /// The end of a pass, serial or concurrent: the table budget settles, live nodes and
  /// refreshing settle, the revision advances unless the pass `stopped`, and the report is made.
  mutating func finishPass(
    _ log: inout PassLog, stopped: Bool, revision newRevision: Int?,
    clock: ContinuousClock, start: ContinuousClock.Instant
  ) -> EvaluationReport {
    if tableBudget != nil { settleTableBudget(ran: log.ran.nodes, stopped: stopped, log: &log) }
    if !releaseCountdown.isEmpty { releaseCountdown = [] }
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
    newPassStamp()
    queue.ensureCapacity(graph.order.labelCapacity)
    if serial && dirtySet.list.count > queue.heapLimit && queue.isEmpty {
      // `dirtySet.list` has no duplicates: it lists every node iff it has every index, or as
      // many entries as there are present nodes and none of them removed.
      let everyNode =
        dirtySet.list.count == graph.nodeCount
        || (dirtySet.list.count == graph.nodeCount - graph.removedCount
          && dirtySet.list.allSatisfy { !graph.flags(of: $0).contains(.removed) })
      if everyNode && graph.removedCount == 0 {
        // Every label that holds a node, a word of the bitset at a time.
        dirtySet.removeAllClearingEveryMark()
        queue.pushAll(labelsOf: graph.order.nodeAt, hole: TopologicalOrder.hole)
      } else {
        queue.beginBitset()
        for node in dirtySet.list {
          dirtySet.marks[Int(node)] = false
          queue.pushBit(graph.order.position[Int(node)])
        }
      }
      dirtySet.list.removeAll(keepingCapacity: true)
      if live.emission != nil { applyPendingEmission() }
      return everyNode
    }
    for node in dirtySet.list {
      dirtySet.marks[Int(node)] = false
      enqueue(node)
    }
    dirtySet.list.removeAll(keepingCapacity: true)
    if live.emission != nil { applyPendingEmission() }
    return false
  }

  /// A new pass stamp (`pass`), on unique storage.
  mutating func newPassStamp() {
    graph.makeUnique()
    pass &+= 1
    if pass == 0 {
      for node in 0..<graph.nodeCount {
        graph.storage.records[node].queuedStamp = 0
        graph.storage.records[node].changedStamp = 0
      }
      pass = 1
    }
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

  /// Settles `node` inline as its disposition says (`NodeDisposition`). Returns whether its
  /// outputs or state changed (so its successors must be visited).
  ///
  /// An unnecessary node (demand-driven passes) is marked stale and reports a change the first
  /// time, so its descendants (unnecessary as well) are marked stale too; a node with a failed
  /// input fails with its root, one with a pending input becomes pending; live nodes go to
  /// `runLive`. The serial pass, the lazy pass (for nodes without lazy inputs) and the
  /// concurrent pass (for inline nodes) all settle nodes here.
  /// Not inlined: the general path costs far more than a call, and keeping it out of the pass
  /// loop leaves room for the typed path to be inlined there.
  @inline(never)
  mutating func run(_ node: Int32, forced: Bool = false, scratch: inout EvaluationScratch, log: inout PassLog) -> Bool {
    let index = Int(node)
    let flags = graph.record(node).flags
    // A node reading a dropped table (`GraphEvaluator+Eviction`) restores it before its
    // disposition reads its inputs' states (a restore may fail).
    let readsDropped = EvaluationGraph.Flags.inert.rawValue | EvaluationGraph.Flags.readsDropped.rawValue
    if flags & readsDropped == EvaluationGraph.Flags.readsDropped.rawValue && isComputed(node) {
      restoreDroppedInputs(of: node, log: &log)
    }
    let disposition = disposition(of: node)
    switch disposition {
    case .inert, .notNeeded:
      return false
    case .unnecessary:
      // Stale, and so is every descendant (unnecessary too): the first time, visit them.
      let wasStale = demand.stale[index]
      demand.stale[index] = true
      return !wasStale
    case .live:
      return runLive(node, forced: forced, scratch: &scratch, log: &log)
    case .fail, .pending, .run, .lazy:
      break  // (`.lazy` never comes here: a lazy pass takes such a node's two steps instead)
    }
    defer { if !releaseCountdown.isEmpty || cacheKeeper != nil { countDownInputs(of: node) } }
    if case .fail(let root) = disposition { return recordFailure(node, root: root, message: nil, log: &log) }
    if disposition == .pending { return recordPending(node) }
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
    if let violation = limits.violation(
      in: scratch.outputs.values, expensive: flags & EvaluationGraph.Flags.expensive.rawValue != 0)
    {
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
    for port in 0..<inputCount {
      scratch.inputs[port] = graph.value(inSlot: Int(columns.inputSources[inputStart + port]))
    }
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
    if pendingSet.marks[index] {
      clearPending(node)
      changed = true
    }
    let record = graph.record(node)
    for port in 0..<min(outputs.count, Int(record.outputCount))
    where graph.store(outputs[port], inSlot: Int(record.outputStart) + port) {
      changed = true
    }
    if !changed { log.cutOff.append(node) }
    return changed
  }

  /// The root failure among the node's inputs (the first failed input in port order; see
  /// `NodeDisposition`).
  func failedInputRoot(of node: Int32) -> Int32? { NodeDisposition.failedInputRoot(of: node, in: self) }

  /// Marks `node` failed with root cause `root`. Returns whether its failure state changed.
  mutating func recordFailure(_ node: Int32, root: Int32, message: String?, log: inout PassLog) -> Bool {
    let previous = graph.record(node).failure
    if previous < 0 { failureTable.count += 1 }
    graph.storage.records[Int(node)].failure = root
    var changed = previous != root
    if let message = message.map({ describingInputs($0, of: node) }) {
      changed = changed || failureTable.messages[node] != message
      failureTable.messages[node] = message
    } else {
      failureTable.messages[node] = nil
    }
    log.failed.append(node)
    return changed
  }

  mutating func clearFailure(_ node: Int32) {
    graph.storage.records[Int(node)].failure = -1
    failureTable.messages[node] = nil
    failureTable.count -= 1
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
    EvaluationReport(
      revision: revision, wasCancelled: cancelled, duration: duration, nodeIDs: graph.ids,
      ran: log.ran.nodes, cutOff: log.cutOff.nodes, failed: log.failed,
      failureMessages: log.failed.map { failureDescription(of: $0) ?? "failed" },
      durations: log.durations, starts: log.starts, notEager: log.notEager, brought: log.brought,
      caught: log.caught)
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
  /// Lazy passes: the nodes not eagerly needed, and those of them the pass brought up (the
  /// report's `notNeeded` is the difference, made when asked).
  var notEager: [Int32] = []
  var brought: [Int32] = []
  /// Lazy nodes that caught a failure of an input they asked for, with its message.
  var caught: [Int32: String] = [:]
}
