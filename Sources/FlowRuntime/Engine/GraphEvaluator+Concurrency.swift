import FlowGraph

/// The result of an expensive node's evaluation in a child task.
struct NodeCompletion: Sendable {
  var node: Int32
  var outputs: [Value]
  var errorMessage: String?
  var duration: Duration
  var began: ContinuousClock.Instant
}

/// What a concurrent pass's task group hands back: a child task's node, or the stop signal.
enum PassEvent: Sendable {
  /// An expensive node finished in its child task.
  case completed(NodeCompletion)
  /// The stop signal fired: consult `shouldStop` now rather than after the running nodes.
  case stopSignalled
}

/// The state of a node in a concurrent pass (`GraphEvaluator.concurrentState`; all `idle`
/// between passes).
enum ConcurrentNodeState: UInt8, Sendable {
  case idle
  /// Popped while an input was unfinished; `waitCount` counts the unfinished input edges.
  case waiting
  /// Running in a child task.
  case running
  /// Was waiting, its inputs are final, and it is queued again.
  case released
}

extension GraphEvaluator {
  /// Whether passes should use `evaluateConcurrently`: some node is expensive and the options
  /// allow child tasks.
  ///
  /// Graphs with live nodes always use the serial pass, which carries emissions (see
  /// `GraphEvaluator+Live.swift`).
  package var benefitsFromConcurrency: Bool {
    options.runsExpensiveNodesConcurrently && graph.expensiveCount > 0 && live.nodes.isEmpty
  }

  /// Runs one pass, evaluating expensive nodes in child tasks (see `Documentation/Architecture.md`).
  ///
  /// Cheap nodes still run inline, in topological order. Results equal `evaluate()`'s; only the
  /// order of `ran` may differ. Falls back to `evaluate()` when no node is expensive.
  ///
  /// - Parameters:
  ///   - revision: the revision the pass brings the values up to.
  ///   - shouldStop: checked before each node; `true` cancels the child tasks, discards their
  ///     results and leaves the unfinished nodes dirty.
  ///   - stopSignal: an element (or the end) of this sequence while the pass waits for child
  ///     tasks makes it consult `shouldStop` at once, so a superseded pass does not wait for
  ///     slow nodes to finish on their own.
  @discardableResult
  public mutating func evaluateConcurrently(revision newRevision: Int? = nil, shouldStop: () -> Bool = { false },
                                            stopSignal: AsyncStream<Void>? = nil) async -> EvaluationReport {
    guard benefitsFromConcurrency else { return evaluate(revision: newRevision, shouldStop: shouldStop) }
    let clock = ContinuousClock()
    let start = clock.now
    let count = graph.nodeCount
    if concurrentState.count < count {
      concurrentState.append(contentsOf: repeatElement(ConcurrentNodeState.idle, count: count - concurrentState.count))
      waitCount.append(contentsOf: repeatElement(0, count: count - waitCount.count))
      mustRunStamp.append(contentsOf: repeatElement(0, count: count - mustRunStamp.count))
    }
    let dirty = pendingDirty
    beginPass()
    for node in dirty { mustRunStamp[Int(node)] = pass }
    var log = startLog(began: start)
    progress?.nodesTotal.store(dirty.count, ordering: .relaxed)
    var scratch = takeScratch()
    var touched: [Int32] = []
    var stopped = false
    let limit = options.maximumConcurrentNodes
    await withTaskGroup(of: PassEvent.self) { group in
      var running = 0
      if let stopSignal {
        group.addTask {
          for await _ in stopSignal { break }
          return .stopSignalled
        }
      }
      passLoop: while true {
        while let position = queue.popMin() {
          if shouldStop() {
            stopped = true
            markDirtyIfMustRun(graph.order.nodeAt[Int(position)])
            break passLoop
          }
          let node = graph.order.nodeAt[Int(position)]
          let index = Int(node)
          let state = concurrentState[index]
          if state == .idle && hasUnfinishedInput(node) {
            touched.append(node)
            concurrentState[index] = .waiting
            waitCount[index] = unfinishedInputCount(of: node)
            for successor in graph.successors(of: node) { enqueue(successor) }
            continue
          }
          let flags = graph.flags(of: node)
          if mustRunStamp[index] != pass || flags.contains(.container) || flags.contains(.removed) {
            finish(node, changed: false)
            continue
          }
          if flags.contains(.expensive) && failedInputRoot(of: node) == nil && isComputed(node)
              && !(pendingCount > 0 && hasPendingInput(node)) {
            while running >= limit, let event = await group.next() {
              guard case .completed(let completion) = event else {
                if shouldStop() {
                  stopped = true
                  markDirtyIfMustRun(node)
                  break passLoop
                }
                continue
              }
              running -= 1
              complete(completion, log: &log)
            }
            gatherInputs(of: node, into: &scratch)
            let evaluator = graph.configuration(of: node).evaluator
            let inputs = NodeInputs(scratch.inputs)
            let previous = scratch.outputs
            if let progress { progress.runningNode.store(index, ordering: .relaxed) }
            let limits = self.limits
            group.addTask {
              let taskClock = ContinuousClock()
              let began = taskClock.now
              var outputs = previous
              do {
                try evaluator.evaluate(inputs, &outputs)
                if let violation = limits.violation(in: outputs.values, expensive: true) { throw violation }
                return .completed(NodeCompletion(node: node, outputs: outputs.values, errorMessage: nil,
                                                 duration: taskClock.now - began, began: began))
              } catch {
                return .completed(NodeCompletion(node: node, outputs: [], errorMessage: GraphEvaluator.message(of: error),
                                                 duration: taskClock.now - began, began: began))
              }
            }
            running += 1
            if state == .idle { touched.append(node) }
            concurrentState[index] = .running
            for successor in graph.successors(of: node) { enqueue(successor) }
            continue
          }
          finish(node, changed: run(node, scratch: &scratch, log: &log))
        }
        guard running > 0, let event = await group.next() else { break }
        guard case .completed(let completion) = event else {
          if shouldStop() {
            stopped = true
            break
          }
          continue
        }
        running -= 1
        complete(completion, log: &log)
      }
      group.cancelAll()
      while await group.next() != nil {}
    }
    self.scratch = scratch
    if stopped {
      while let position = queue.popMin() { markDirtyIfMustRun(graph.order.nodeAt[Int(position)]) }
      for node in touched where concurrentState[Int(node)] != .idle { markDirtyIfMustRun(node) }
    }
    for node in touched { concurrentState[Int(node)] = .idle }
    finishLivePass(stopped: stopped)
    settleRefreshing()
    let target = newRevision ?? revision + 1
    if !stopped { revision = target }
    let report = makeReport(log, revision: target, cancelled: stopped, duration: clock.now - start)
    ranList.releaseIfLarge()
    cutOffList.releaseIfLarge()
    return report
  }

  /// Takes the result of a child task into the node's outputs and releases its waiters.
  mutating func complete(_ completion: NodeCompletion, log: inout PassLog) {
    let node = completion.node
    log.durations[node] = completion.duration
    log.starts[node] = completion.began - log.began
    if let progress { progress.nodesDone.add(1, ordering: .relaxed) }
    log.ran.append(node)
    graph.storage.records[Int(node)].evaluationCount &+= 1
    let changed: Bool
    if let message = completion.errorMessage {
      changed = recordFailure(node, root: node, message: message, log: &log)
    } else {
      changed = storeOutputs(of: node, completion.outputs, log: &log)
    }
    finish(node, changed: changed)
  }

  /// A node's value is final for this pass: propagate a change, and if it had been waiting or
  /// running, release the nodes waiting on it.
  mutating func finish(_ node: Int32, changed: Bool) {
    let index = Int(node)
    if changed {
      graph.storage.records[index].changedStamp = pass
      for successor in graph.successors(of: node) {
        mustRunStamp[Int(successor)] = pass
        enqueue(successor)
      }
    }
    guard concurrentState[index] != .idle else { return }
    concurrentState[index] = .idle
    for successor in graph.successors(of: node) where concurrentState[Int(successor)] == .waiting {
      waitCount[Int(successor)] -= 1
      if waitCount[Int(successor)] == 0 {
        concurrentState[Int(successor)] = .released
        queue.push(graph.order.position[Int(successor)])
      }
    }
  }

  func hasUnfinishedInput(_ node: Int32) -> Bool { unfinishedInputCount(of: node) > 0 }

  /// How many input edges of `node` come from nodes waiting or running in this pass.
  func unfinishedInputCount(of node: Int32) -> Int32 {
    var count: Int32 = 0
    for port in 0..<graph.inputCount(of: node) {
      let source = graph.sourceNode(of: node, input: port)
      if source >= 0 && concurrentState[Int(source)] != .idle { count += 1 }
    }
    return count
  }

  mutating func markDirtyIfMustRun(_ node: Int32) {
    if mustRunStamp[Int(node)] == pass { markDirty(node) }
  }
}
