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

extension GraphEvaluator {
  /// Whether passes should use `evaluateConcurrently`: some node is expensive and the options
  /// allow child tasks.
  ///
  /// Graphs with live nodes always use the serial pass, which carries emissions (see
  /// `GraphEvaluator+Live.swift`); so do graphs with lazy inputs, whose pass is the lazy one
  /// (`GraphEvaluator+LazyPass.swift`).
  package var benefitsFromConcurrency: Bool {
    options.runsExpensiveNodesConcurrently && graph.expensiveCount > 0 && live.nodes.isEmpty && graph.lazyCount == 0
  }

  /// Runs one pass, evaluating expensive nodes in child tasks (see `Documentation/Evaluation.md`).
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
  public mutating func evaluateConcurrently(
    revision newRevision: Int? = nil, shouldStop: () -> Bool = { false },
    stopSignal: AsyncStream<Void>? = nil
  ) async -> EvaluationReport {
    guard benefitsFromConcurrency else { return evaluate(revision: newRevision, shouldStop: shouldStop) }
    let clock = ContinuousClock()
    let start = clock.now
    if tableBudget != nil { prepareTableBudgetPass() }
    let dirty = beginConcurrentPass()
    var machine = passMachine
    passMachine = Self.idleMachine
    machine.begin(dirty: dirty, limit: options.maximumConcurrentNodes, in: self)
    var log = startLog(began: start)
    progress?.nodesTotal.store(dirty.count, ordering: .relaxed)
    var scratch = takeScratch()
    var rerun: [Int32] = []
    var stopped = false
    await withTaskGroup(of: PassEvent.self) { group in
      if let stopSignal {
        group.addTask {
          for await _ in stopSignal { break }
          return .stopSignalled
        }
      }
      passLoop: while true {
        let action = machine.next(in: self)
        switch action {
        case .done:
          break passLoop
        case .await:
          guard let event = await group.next() else { break passLoop }
          switch event {
          case .completed(let completion):
            machine.completed(completion.node, complete(completion, log: &log), in: self)
          case .stopSignalled:
            if shouldStop() {
              stopped = true
              rerun = machine.stop(abandoning: nil, in: self)
              break passLoop
            }
          }
        case .runInline(let node), .fail(let node, _), .spawn(let node):
          if shouldStop() {
            stopped = true
            rerun = machine.stop(abandoning: node, in: self)
            break passLoop
          }
          switch action {
          case .fail(_, let root):
            let changed = recordFailure(node, root: root, message: nil, log: &log)
            machine.completed(node, noteChange(of: node, changed ? .failed(root: root) : .unchanged), in: self)
          case .spawn:
            if graph.record(node).flags & EvaluationGraph.Flags.readsDropped.rawValue != 0 {
              restoreDroppedInputs(of: node, log: &log)
              if let root = failedInputRoot(of: node) {
                // Restoring an input failed: the node fails with it instead of running.
                let changed = recordFailure(node, root: root, message: nil, log: &log)
                machine.completed(node, noteChange(of: node, changed ? .failed(root: root) : .unchanged), in: self)
                continue passLoop
              }
            }
            spawn(node, in: &group, scratch: &scratch)
          default:
            let changed = run(node, scratch: &scratch, log: &log)
            machine.completed(node, noteChange(of: node, changed ? .changed : .unchanged), in: self)
          }
        }
      }
      group.cancelAll()
      while await group.next() != nil {}
    }
    self.scratch = scratch
    for node in rerun { markDirty(node) }
    passMachine = machine
    return finishPass(&log, stopped: stopped, revision: newRevision, clock: clock, start: start)
  }

  /// A machine with nothing allocated, left in `passMachine` while a pass holds the real one.
  static let idleMachine = PassStateMachine()

  /// Starts a concurrent pass: a new stamp, unique storage; returns the dirty nodes (now no
  /// longer marked), which the machine queues.
  mutating func beginConcurrentPass() -> [Int32] {
    newPassStamp()
    let dirty = dirtySet.takeAll()
    // No live node takes part (`benefitsFromConcurrency`): an emission left for a node that
    // has gone is dropped.
    if live.emission != nil { applyPendingEmission() }
    return dirty
  }

  /// Starts `node`'s evaluation in a child task of `group`, on its current inputs.
  mutating func spawn(_ node: Int32, in group: inout TaskGroup<PassEvent>, scratch: inout EvaluationScratch) {
    gatherInputs(of: node, into: &scratch)
    let evaluator = graph.configuration(of: node).evaluator
    let inputs = NodeInputs(scratch.inputs)
    let previous = scratch.outputs
    if let progress { progress.runningNode.store(Int(node), ordering: .relaxed) }
    let limits = self.limits
    group.addTask {
      let taskClock = ContinuousClock()
      let began = taskClock.now
      var outputs = previous
      do {
        try evaluator.evaluate(inputs, &outputs)
        if let violation = limits.violation(in: outputs.values, expensive: true) { throw violation }
        return .completed(
          NodeCompletion(
            node: node, outputs: outputs.values, errorMessage: nil,
            duration: taskClock.now - began, began: began))
      } catch {
        return .completed(
          NodeCompletion(
            node: node, outputs: [], errorMessage: GraphEvaluator.message(of: error),
            duration: taskClock.now - began, began: began))
      }
    }
  }

  /// Takes the result of a child task into the node's outputs; returns its outcome.
  mutating func complete(_ completion: NodeCompletion, log: inout PassLog) -> PassStateMachine.Outcome {
    let node = completion.node
    log.durations[node] = completion.duration
    log.starts[node] = completion.began - log.began
    if let progress { progress.nodesDone.add(1, ordering: .relaxed) }
    log.ran.append(node)
    graph.storage.records[Int(node)].evaluationCount &+= 1
    if let message = completion.errorMessage {
      let changed = recordFailure(node, root: node, message: message, log: &log)
      return noteChange(of: node, changed ? .failed(root: node) : .unchanged)
    }
    return noteChange(of: node, storeOutputs(of: node, completion.outputs, log: &log) ? .changed : .unchanged)
  }

  /// Stamps a node whose outcome propagates as changed in this pass (what observers compare).
  mutating func noteChange(of node: Int32, _ outcome: PassStateMachine.Outcome) -> PassStateMachine.Outcome {
    if outcome.propagates { graph.storage.records[Int(node)].changedStamp = pass }
    return outcome
  }
}
