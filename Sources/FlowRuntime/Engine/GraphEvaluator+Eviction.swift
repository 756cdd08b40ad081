// The table memory budget's wiring (`EngineOptions.tableMemoryBudget`; the decisions are
// `TableBudget`'s). After each completed pass the least recently used droppable tables are
// dropped until the budget holds: their slots get a placeholder (a string, so the typed path
// never reads it and the node's next run compares as changed), and their consumers a hint
// flag (`readsDropped`), which the pass's general path already tests with `inert` in one
// mask, so nothing is added per node when no budget is set. A node with the hint restores its
// dropped inputs (recursively, from their own inputs) before it runs; a read of a dropped node
// recomputes it without keeping it. A restore is not a run: it is not in the report's `ran`,
// leaves evaluation counts alone and changes nothing downstream.

import FlowGraph

extension EvaluationGraph.Flags {
  /// Some input of the node may read a dropped table: restore before running. A hint: set on
  /// a dropped node's successors and, at a pass's start, on dirty nodes reading one (an edit
  /// may rewrite flags); a node that finds nothing dropped just clears it.
  static let readsDropped = EvaluationGraph.Flags(rawValue: 32)
}

extension GraphEvaluator {
  /// What a dropped table's slot holds: not a table, and boxed.
  static let droppedPlaceholder = Value.string("")

  /// What the table memory budget did (`nil` without `EngineOptions.tableMemoryBudget`).
  public var tableMemory: TableMemoryStatistics? {
    guard let budget = tableBudget else { return nil }
    let ids = graph.ids
    return TableMemoryStatistics(
      budget: budget.limit, heldBytes: budget.heldBytes, peakHeldBytes: budget.peakHeldBytes,
      evictions: budget.evictionCount, recomputations: budget.recomputationCount,
      lastEvicted: budget.lastEvicted.map { ids[Int($0)] }, lastRecomputed: budget.lastRecomputed.map { ids[Int($0)] },
      dropped: Set(budget.droppedNodes.filter { isDropped($0) }.map { ids[Int($0)] }))
  }

  /// Whether `node`'s tables are dropped now.
  @inline(__always)
  func isDropped(_ node: Int32) -> Bool {
    guard let budget = tableBudget, Int(node) < budget.dropped.count, budget.dropped[Int(node)] else { return false }
    let record = graph.record(node)
    return budget.isDropped(node, evaluationCount: record.evaluationCount)
      && record.flags & EvaluationGraph.Flags.removed.rawValue == 0
  }

  /// Whether the budget may track `node`'s tables at all: a derived node (at least one
  /// connected input, so its outputs are a function of its inputs and parameters), not live.
  /// Readers have no inputs and are never dropped: a file may change under them.
  func isDerived(_ node: Int32) -> Bool {
    let record = graph.record(node)
    let excluded = EvaluationGraph.Flags.inert.rawValue | EvaluationGraph.Flags.live.rawValue
    guard record.flags & excluded == 0 else { return false }
    for port in 0..<graph.inputCount(of: node) where graph.sourceNode(of: node, input: port) >= 0 { return true }
    return false
  }

  /// Whether `node`'s tables may be dropped now: derived, current (not failed, pending, stale
  /// or dirty) and not observed.
  func mayDrop(_ node: Int32) -> Bool {
    let index = Int(node)
    guard isDerived(node), graph.record(node).failure < 0, !pendingSet.marks[index], !demand.stale[index],
      !dirtySet.marks[index], !demand.refreshing.contains(node)
    else { return false }
    return (demand.observers[graph.ids[index]] ?? 0) == 0
  }

  /// The table bytes `node`'s outputs hold.
  func tableBytes(ofNode node: Int32) -> Int {
    let record = graph.record(node)
    var total = 0
    for port in 0..<Int(record.outputCount) {
      total += TableBudget.tableBytes(of: graph.value(inSlot: Int(record.outputStart) + port))
    }
    return total
  }

  // MARK: Passes

  /// Before a pass: room for new nodes, and the hint on dirty nodes reading a dropped table.
  /// Not inlined, like the other hooks: the pass loops stay as they are without a budget.
  @inline(never)
  mutating func prepareTableBudgetPass() {
    tableBudget!.grow(to: graph.nodeCount)
    tableBudget!.beginPass()
    guard !tableBudget!.droppedNodes.isEmpty else { return }
    for node in dirtySet.list where readsDroppedInput(node) {
      graph.storage.records[Int(node)].flags |= EvaluationGraph.Flags.readsDropped.rawValue
    }
  }

  func readsDroppedInput(_ node: Int32) -> Bool {
    guard !graph.flags(of: node).contains(.removed) else { return false }
    for port in 0..<graph.inputCount(of: node) {
      let source = graph.sourceNode(of: node, input: port)
      if source >= 0 && isDropped(source) { return true }
    }
    return false
  }

  /// After a pass: the nodes that ran and the inputs they read are used; dropped nodes now
  /// observed are recomputed; then, unless the pass stopped, the least recently used tables
  /// are dropped until the budget holds.
  @inline(never)
  mutating func settleTableBudget(ran: [Int32], stopped: Bool, log: inout PassLog) {
    for node in ran {
      for port in 0..<graph.inputCount(of: node) {
        let source = graph.sourceNode(of: node, input: port)
        if source >= 0 && !isDropped(source) { use(source) }
      }
      use(node)
    }
    let observedDropped = tableBudget!.droppedNodes.filter {
      isDropped($0) && (demand.observers[graph.ids[Int($0)]] ?? 0) > 0 && graph.record($0).failure < 0
    }
    for node in observedDropped.sorted() { restore(node, log: &log) }
    guard !stopped else { return }
    var budget = tableBudget.take()!
    let evicted = budget.evictions(canDrop: { mayDrop($0) }, evaluationCount: { graph.record($0).evaluationCount })
    tableBudget = budget
    for node in evicted { drop(node) }
    #if FLOW_INTERNAL_CHECKS
    tableBudget!._checkInvariants()
    #endif
  }

  /// `node`'s tables were produced or read.
  mutating func use(_ node: Int32) {
    tableBudget!.use(node, bytes: isDerived(node) ? tableBytes(ofNode: node) : 0)
  }

  /// Replaces `node`'s table outputs with the placeholder and hints its successors.
  mutating func drop(_ node: Int32) {
    let record = graph.record(node)
    for port in 0..<Int(record.outputCount) {
      let slot = Int(record.outputStart) + port
      if case .table = graph.value(inSlot: slot) { _ = graph.store(Self.droppedPlaceholder, inSlot: slot) }
    }
    for successor in graph.successors(of: node) {
      graph.storage.records[Int(successor)].flags |= EvaluationGraph.Flags.readsDropped.rawValue
    }
  }

  // MARK: Restoring

  /// The slow path of `run` for a node with the hint: restores the dropped tables it reads.
  @inline(never)
  mutating func restoreDroppedInputs(of node: Int32, log: inout PassLog) {
    graph.storage.records[Int(node)].flags &= ~EvaluationGraph.Flags.readsDropped.rawValue
    guard tableBudget != nil else { return }
    for port in 0..<graph.inputCount(of: node) {
      let source = graph.sourceNode(of: node, input: port)
      if source >= 0 && isDropped(source) { restore(source, log: &log) }
    }
  }

  /// Recomputes dropped `target` (and first the dropped nodes it reads) into its slots. A
  /// recomputation that throws (it did not when the node ran on the same inputs) fails the
  /// node and marks it dirty, so the next pass runs it.
  mutating func restore(_ target: Int32, log: inout PassLog) {
    var stack: [(node: Int32, ready: Bool)] = [(target, false)]
    while let (node, ready) = stack.popLast() {
      guard isDropped(node) else { continue }
      if !ready {
        stack.append((node, true))
        for port in 0..<graph.inputCount(of: node) {
          let source = graph.sourceNode(of: node, input: port)
          if source >= 0 && isDropped(source) { stack.append((source, false)) }
        }
        continue
      }
      switch recomputedOutputs(of: node, slotValue: { graph.value(inSlot: $0) }) {
      case .success(let outputs):
        let start = Int(graph.record(node).outputStart)
        for (port, value) in outputs.enumerated() { _ = graph.store(value, inSlot: start + port) }
        tableBudget!.recomputed(node, bytes: tableBytes(ofNode: node))
      case .failure(let error):
        tableBudget!.clearDropped(node)
        _ = recordFailure(node, root: node, message: error.message, log: &log)
        markDirty(node)
      }
    }
  }

  /// `node`'s outputs computed afresh from its inputs (`slotValue` reads a slot), its other
  /// outputs as they are.
  func recomputedOutputs(of node: Int32, slotValue: (Int) -> Value) -> Result<[Value], NodeError> {
    let inputs = (0..<graph.inputCount(of: node)).map { slotValue(Int(graph.inputSlot(of: node, input: $0))) }
    var outputs = NodeOutputs(graph.outputValues(of: node))
    do {
      try graph.evaluator(of: node).evaluate(NodeInputs(inputs), &outputs)
    } catch {
      return .failure(NodeError("recomputing its dropped table failed: \(Self.message(of: error))"))
    }
    return .success(outputs.values)
  }

  /// The outputs of `node` in port order: its slots, or, when its tables are dropped,
  /// recomputed (with the dropped nodes it reads) without keeping them.
  func currentOutputValues(of node: Int32) -> Result<[Value], NodeError> {
    guard isDropped(node) else { return .success(graph.outputValues(of: node)) }
    var computed: [Int32: [Value]] = [:]
    var stack: [(node: Int32, ready: Bool)] = [(node, false)]
    while let (next, ready) = stack.popLast() {
      guard computed[next] == nil else { continue }
      if !ready {
        stack.append((next, true))
        for port in 0..<graph.inputCount(of: next) {
          let source = graph.sourceNode(of: next, input: port)
          if source >= 0 && isDropped(source) && computed[source] == nil { stack.append((source, false)) }
        }
        continue
      }
      let result = recomputedOutputs(of: next) { slot in
        let owner = graph.storage.slots[slot].owner
        if owner >= 0, let values = computed[owner] { return values[slot - Int(graph.record(owner).outputStart)] }
        return graph.value(inSlot: slot)
      }
      switch result {
      case .success(let values): computed[next] = values
      case .failure(let error): return .failure(error)
      }
    }
    return .success(computed[node] ?? graph.outputValues(of: node))
  }
}
