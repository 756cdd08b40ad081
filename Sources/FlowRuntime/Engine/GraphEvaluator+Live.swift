import FlowGraph

// Live nodes inside the evaluator: registration as nodes join and leave, pending nodes,
// stateful steps staged until a pass completes, emissions applied at the start of a pass,
// and the sources to start or stop after a batch of edits. See `LiveTable` and Reference.md, "Live nodes".

extension GraphEvaluator {
  /// Gives a node that joins the graph (or is reconfigured) fresh live state, or its saved
  /// state if `saved` holds some (unreadable state fails the node, naming it).
  mutating func registerLive(_ node: Int32, _ configured: ConfiguredNode, kind: String, saved: JSONValue?) {
    guard let behavior = configured.instance.live else { return }
    var entry = LiveNodeState(behavior: behavior, kind: kind, state: behavior.initialState)
    if let saved {
      do throws(NodeError) {
        guard let value = Value(json: saved, as: .any) else { throw NodeError("it is JSON null") }
        entry.state = try behavior.restore(value)
      } catch {
        entry.errorMessage = "node '\(graph.ids[Int(node)])' cannot restore its saved live state: \(error.message)"
      }
    }
    live.nodes[node] = entry
    live.touched.append(node)
  }

  /// Tears down a node's live state (it leaves the graph or is reconfigured).
  mutating func retireLive(_ node: Int32) {
    live.broughtUp.remove(node)
    guard let entry = live.nodes.removeValue(forKey: node) else { return }
    if let token = entry.token { live.stops.append(token) }
  }

  /// The sources to start and stop since the last call: nodes that joined, left, were
  /// reconfigured, or became necessary or unnecessary. Starts carry fresh tokens.
  mutating func takeLiveChanges() -> LiveChanges {
    var changes = LiveChanges(stops: live.stops)
    live.stops.removeAll()
    guard !live.touched.isEmpty else { return changes }
    var seen = Set<Int32>()
    for node in live.touched where seen.insert(node).inserted {
      guard var entry = live.nodes[node] else { continue }
      let wanted = entry.behavior.policy == .persistent || demand.counts[Int(node)] > 0
      switch entry.behavior.shape {
      case .source(let source):
        let runs = wanted && !entry.isFinished && entry.errorMessage == nil && sourceIsNeeded(node)
        if runs && entry.token == nil {
          let token = LiveTable.makeToken()
          entry.token = token
          changes.starts.append(
            LiveSourceStart(
              token: token, node: node, id: graph.ids[Int(node)], source: source,
              state: entry.state))
        } else if !runs, let token = entry.token {
          changes.stops.append(token)
          entry.token = nil
        }
      case .stateful:
        if !wanted {
          entry.state = entry.behavior.initialState
          entry.lastInputs = nil
        }
      }
      live.nodes[node] = entry
    }
    live.touched.removeAll()
    return changes
  }

  /// Whether a source may run as its policy says: false only for a source that lies behind lazy
  /// inputs alone (every way from it to something needed whatever the lazy nodes decide — an
  /// eagerly needed node, or a sink — passes through a lazy input) and that no pass has brought
  /// up yet. Once brought up, a source keeps running.
  ///
  /// - Complexity: O(1) in a graph without lazy inputs; else O(*n* + *m*) when the graph's shape
  ///   or observers changed since the eagerly needed set was made, plus the walk from the source.
  mutating func sourceIsNeeded(_ node: Int32) -> Bool {
    guard graph.lazyCount > 0, !live.broughtUp.contains(node) else { return true }
    if !lazy.isCurrent(shape: graph.shapeVersion, observers: demand.observerVersion, demandDriven: options.demandDriven)
    {
      lazy.ensureCount(graph.nodeCount, clearingStamps: false)
      markEagerlyNeeded()
      lazy.queuesMissed = true
    }
    var seen: Set<Int32> = [node]
    var stack: [Int32] = [node]
    while let current = stack.popLast() {
      if lazy.eager[Int(current)] || graph.record(current).successorCount == 0 { return true }
      for successor in graph.successors(of: current)
      where !seen.contains(successor) && reads(successor, eagerlyFrom: current) {
        seen.insert(successor)
        stack.append(successor)
      }
    }
    return false
  }

  /// Whether `node` reads `source` through an input that is not lazy.
  private func reads(_ node: Int32, eagerlyFrom source: Int32) -> Bool {
    let lazyPorts = graph.flags(of: node).contains(.lazy) ? graph.configuration(of: node).lazyPorts : nil
    for port in 0..<graph.inputCount(of: node) where graph.sourceNode(of: node, input: port) == source {
      if lazyPorts?[Int(port)] != true { return true }
    }
    return false
  }

  /// Marks the live sources the pass just brought up (through a lazy input) to start: called
  /// at the end of a lazy pass; `takeLiveChanges()` starts them.
  mutating func noteBroughtUpSources() {
    guard !live.nodes.isEmpty else { return }
    for node in lazy.brought where live.nodes[node]?.behavior.isSource == true {
      if live.broughtUp.insert(node).inserted { live.touched.append(node) }
    }
  }

  /// The tokens of every running source (to stop them all on reload or shutdown).
  var runningSourceTokens: [UInt64] { live.runningTokens }

  /// Each live source's id with the number of values it has emitted into passes.
  package var sourceEmissionCounts: [String: Int] {
    var counts: [String: Int] = [:]
    for (node, entry) in live.nodes {
      if case .source = entry.behavior.shape { counts[graph.ids[Int(node)]] = entry.emissionCount }
    }
    return counts
  }

  /// The live nodes with their policy, whether they run, and their committed state.
  public var liveNodes: [LiveNodeInfo] {
    live.nodes.sorted { $0.key < $1.key }.map { node, entry in
      let running: Bool
      switch entry.behavior.shape {
      case .source: running = entry.token != nil
      case .stateful: running = entry.behavior.policy == .persistent || demand.counts[Int(node)] > 0
      }
      return LiveNodeInfo(
        id: graph.ids[Int(node)], kind: entry.kind, policy: entry.behavior.policy, isRunning: running,
        isFinished: entry.isFinished, state: entry.state.jsonValue)
    }
  }

  /// The committed state of every live node, as `flowRuntime.liveState` holds it.
  public var liveState: JSONObject {
    JSONObject(
      live.nodes.sorted { $0.key < $1.key }.map {
        JSONMember(key: graph.ids[Int($0.key)], value: $0.value.state.jsonValue)
      })
  }

  // MARK: In a pass

  /// Marks `node` pending (an input waits for a source's first emission). Returns whether
  /// that is a change (so its successors become pending too).
  mutating func recordPending(_ node: Int32) -> Bool {
    if graph.record(node).failure >= 0 { clearFailure(node) }
    return pendingSet.insert(node)
  }

  mutating func clearPending(_ node: Int32) { pendingSet.remove(node) }

  /// Whether some input of `node` comes from a pending node.
  func hasPendingInput(_ node: Int32) -> Bool {
    for port in 0..<graph.inputCount(of: node) {
      let source = graph.sourceNode(of: node, input: port)
      if source >= 0 && pendingSet.marks[Int(source)] { return true }
    }
    return false
  }

  /// Whether the current pass is an emission's and `node` descends from its source.
  @inline(__always)
  func isForced(_ node: Int32) -> Bool {
    live.emissionPass == pass && live.emissionPass != 0 && live.emissionReach[Int(node)] == pass
  }

  /// Applies the emission this pass starts with: the source's outputs are set and every
  /// successor is queued as reached by the emission (emissions are events: no cutoff).
  mutating func applyPendingEmission() {
    guard let emission = live.emission else { return }
    live.emission = nil
    let node = emission.node
    guard var entry = live.nodes[node], entry.token == emission.token else { return }
    switch emission.event {
    case .finished:
      entry.isFinished = true
      entry.token = nil
      live.nodes[node] = entry
    case .failed(let message):
      entry.errorMessage = message
      entry.token = nil
      live.nodes[node] = entry
      enqueue(node)
    case .value:
      let record = graph.record(node)
      for port in 0..<min(emission.outputs.count, Int(record.outputCount)) {
        _ = graph.store(emission.outputs[port], inSlot: Int(record.outputStart) + port)
      }
      entry.hasEmitted = true
      entry.emissionCount += 1
      live.nodes[node] = entry
      live.staged.append(StagedLiveState(node: node, state: emission.state, inputs: nil))
      clearPending(node)
      if graph.record(node).failure >= 0 { clearFailure(node) }
      if live.emissionReach.count < graph.nodeCount {
        live.emissionReach.append(contentsOf: repeatElement(0, count: graph.nodeCount - live.emissionReach.count))
      }
      live.emissionPass = pass
      live.emissionReach[Int(node)] = pass
      guard isComputed(node) else { return }
      graph.storage.records[Int(node)].changedStamp = pass
      for successor in graph.successors(of: node) {
        live.emissionReach[Int(successor)] = pass
        enqueue(successor)
      }
    }
  }

  /// Runs a live node (stateful or source). Returns whether its outputs or state of failure
  /// or pendency changed.
  mutating func runLive(_ node: Int32, forced: Bool, scratch: inout EvaluationScratch, log: inout PassLog) -> Bool {
    guard let entry = live.nodes[node] else { return false }
    if let message = entry.errorMessage { return recordFailure(node, root: node, message: message, log: &log) }
    guard case .stateful(let stepper) = entry.behavior.shape else {
      // A source's outputs change only by its emissions.
      return entry.hasEmitted ? false : recordPending(node)
    }
    switch NodeDisposition(inputsOf: node, in: self) {
    case .fail(let root): return recordFailure(node, root: root, message: nil, log: &log)
    case .pending: return recordPending(node)
    default: break
    }
    gatherInputs(of: node, into: &scratch)
    let inputs = Array(scratch.inputs)
    var changed = true
    if let last = entry.lastInputs, last.count == inputs.count {
      changed = !zip(last, inputs).allSatisfy { $0.isIdentical(to: $1) }
    }
    let next: Value
    do {
      next = try stepper.step(
        entry.state, NodeInputs(inputs), LiveContext(isEmission: forced, inputsChanged: changed),
        &scratch.outputs)
    } catch {
      log.ran.append(node)
      graph.storage.records[Int(node)].evaluationCount &+= 1
      return recordFailure(node, root: node, message: Self.message(of: error), log: &log)
    }
    log.ran.append(node)
    graph.storage.records[Int(node)].evaluationCount &+= 1
    live.staged.append(StagedLiveState(node: node, state: next, inputs: inputs))
    return storeOutputs(of: node, scratch.outputs.values, log: &log)
  }

  /// Ends a pass's live side: a completed pass commits the staged states; a stopped one
  /// discards them and marks those stateful nodes dirty, so the next pass reruns them once
  /// from their committed state (no double counting).
  mutating func finishLivePass(stopped: Bool) {
    guard !live.staged.isEmpty else { return }
    for staged in live.staged {
      if stopped {
        if staged.inputs != nil && live.nodes[staged.node] != nil { markDirty(staged.node) }
      } else if live.nodes[staged.node] != nil {
        live.nodes[staged.node]!.state = staged.state
        if let inputs = staged.inputs { live.nodes[staged.node]!.lastInputs = inputs }
      }
    }
    live.staged.removeAll(keepingCapacity: true)
  }
}
