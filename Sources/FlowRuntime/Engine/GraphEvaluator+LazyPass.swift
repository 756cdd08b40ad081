// The lazy pass: the pass of a graph with some node with lazy inputs (`LazyNodeEvaluator`).
// "How a pass handles a lazy node" in `Documentation/Evaluation.md` explains it; in short:
//
// - The nodes needed through eager inputs alone (`LazyTable.eager`) are the ancestors, over
//   eager edges, of the roots (the observed nodes in a demand-driven pass, the sinks otherwise);
//   the set is kept until the graph's shape or the observers change. Queued are the dirty
//   nodes, every eagerly needed lazy node, and, when the set is new, every eagerly needed node
//   that missed a change while it was not needed.
// - Nodes pop in topological order. An eagerly needed node runs as in the serial pass. A node
//   that is not (yet) needed does not run: it is marked `missed`, and keeps its value.
// - A lazy node takes its first step whenever it pops: with its eager inputs final, it asks the
//   kind which lazy inputs it needs; for each, the engine brings up the *region* behind it (the
//   ancestors over eager edges not needed yet, all at lower positions) in topological order,
//   running each node that must run (dirty, missed, or an input it reads changed in this pass)
//   — a lazy node in the region takes its own first step there. Then the node runs if it must.
// - A changed node stamps itself and, over each edge its successor reads (eager, or lazy and
//   asked for), queues the successor if eagerly needed, leaves it to its region's sweep if
//   brought up in this pass, and otherwise marks it `missed`.
//
// Invariant: each node runs at most once per pass, after every input it reads is final; a node
// runs iff it is needed (eagerly, or brought up) and must run. A region never meets a node
// already final in the pass: what an earlier lazy node brought up, or what is eagerly needed.

import FlowGraph

extension GraphEvaluator {
  /// `evaluate(revision:shouldStop:)` for a graph with lazy inputs.
  mutating func evaluateLazily(revision newRevision: Int?, shouldStop: () -> Bool) -> EvaluationReport {
    let clock = ContinuousClock()
    let start = clock.now
    var log = startLog(began: start)
    var scratch = takeScratch()
    if tableBudget != nil { prepareTableBudgetPass() }
    beginLazyPass()
    if options.releasesConsumedTables { prepareReleases() }
    var stopped = false
    var poll = StopPolling(start: start)
    while let position = queue.popMin() {
      let node = graph.order.nodeAt[Int(position)]
      if poll.isDue(clock) && shouldStop() {
        stopped = true
        requeueLazyRemaining(after: node)
        lazy.cacheKey = nil  // the next pass queues again the eagerly needed nodes that missed a change
        break
      }
      lazyStep(node, brought: false, scratch: &scratch, log: &log)
    }
    log.notEager = lazy.notEager
    log.brought = lazy.brought
    if !stopped { noteBroughtUpSources() }
    self.scratch = scratch
    lastRanCount = log.ran.count
    return finishPass(&log, stopped: stopped, revision: newRevision, clock: clock, start: start)
  }

  /// Starts a lazy pass: a new stamp, the dirty nodes stamped and queued, the eagerly needed
  /// set made anew if the graph or the observers changed (then its nodes that missed a change
  /// are queued), and the eagerly needed lazy nodes queued.
  mutating func beginLazyPass() {
    newPassStamp()
    queue.ensureCapacity(graph.order.labelCapacity)
    lazy.ensureCount(graph.nodeCount, clearingStamps: pass == 1)
    for node in dirtySet.list {
      dirtySet.marks[Int(node)] = false
      lazy.dirtyStamp[Int(node)] = pass
      enqueue(node)
    }
    dirtySet.list.removeAll(keepingCapacity: true)
    if live.emission != nil { applyPendingEmission() }
    lazy.brought.removeAll(keepingCapacity: true)
    if !lazy.isCurrent(shape: graph.shapeVersion, observers: demand.observerVersion, demandDriven: options.demandDriven)
    {
      for node in markEagerlyNeeded() where lazy.missed[Int(node)] { enqueue(node) }
    } else if lazy.queuesMissed {
      // The set was made between passes (`sourceIsNeeded`): its nodes that missed a change run.
      for node in 0..<Int32(graph.nodeCount) where lazy.eager[Int(node)] && lazy.missed[Int(node)] { enqueue(node) }
    }
    lazy.queuesMissed = false
    for node in lazy.eagerLazy { enqueue(node) }
  }

  /// Makes the eagerly needed set (`LazyTable.eager`, `eagerLazy`, `notEager`) for the graph
  /// and observers as they are, and returns its nodes.
  ///
  /// - Complexity: O(*n* + *m*).
  @discardableResult
  mutating func markEagerlyNeeded() -> [Int32] {
    for index in lazy.eager.indices { lazy.eager[index] = false }
    var stack: [Int32] = []
    if options.demandDriven {
      for (id, count) in demand.observers where count > 0 {
        if let node = graph.indexByID[id] { stack.append(node) }
      }
    } else {
      for node in 0..<Int32(graph.nodeCount) where graph.record(node).successorCount == 0 { stack.append(node) }
    }
    stack.removeAll { graph.flags(of: $0).contains(.container) || graph.flags(of: $0).contains(.removed) }
    for node in stack { lazy.eager[Int(node)] = true }
    var needed: [Int32] = []
    while let node = stack.popLast() {
      needed.append(node)
      let lazyPorts = graph.flags(of: node).contains(.lazy) ? graph.configuration(of: node).lazyPorts : nil
      for port in 0..<graph.inputCount(of: node) where lazyPorts?[Int(port)] != true {
        let source = graph.sourceNode(of: node, input: port)
        guard source >= 0, !lazy.eager[Int(source)] else { continue }
        lazy.eager[Int(source)] = true
        stack.append(source)
      }
    }
    lazy.eagerLazy = needed.filter { graph.flags(of: $0).contains(.lazy) }
    lazy.notEager = (0..<Int32(graph.nodeCount)).filter { node in
      graph.flags(of: node).isDisjoint(with: .inert) && !lazy.eager[Int(node)]
        && (!options.demandDriven || demand.counts[Int(node)] > 0)
    }
    lazy.cacheKey = (graph.shapeVersion, demand.observerVersion, options.demandDriven)
    return needed
  }

  /// Whether the pass computes `node`: needed eagerly, or brought up by a lazy node.
  @inline(__always)
  func isNeededInPass(_ node: Int32) -> Bool {
    lazy.eager[Int(node)] || lazy.caughtStamp[Int(node)] == pass
  }

  /// One node of a lazy pass: popped from the queue (`brought == false`) or met in a region's
  /// sweep (`brought == true`). See the file's header for the rules.
  mutating func lazyStep(_ node: Int32, brought: Bool, scratch: inout EvaluationScratch, log: inout PassLog) {
    let index = Int(node)
    switch disposition(of: node, needed: brought || lazy.eager[index]) {
    case .inert:
      return
    case .unnecessary:
      markStale(node)
    case .notNeeded:
      lazy.missed[index] = true
    case .lazy:
      lazyNodeSteps(node, scratch: &scratch, log: &log)
    case .live, .fail, .pending, .run:
      // A node brought up runs only if it must (a popped one must); `run` settles it by the
      // same disposition.
      if brought && !mustRun(node) { return }
      lazy.missed[index] = false
      if run(node, scratch: &scratch, log: &log) { noteLazyChange(of: node) }
    }
  }

  /// A stopped lazy pass leaves dirty the popped `node` and the queued ones that must run (dirty
  /// when the pass began, missed a change, or an input they read changed in it). The others —
  /// lazy nodes queued only for their first step, which every pass queues again — stay clean:
  /// marking them dirty would run them in the pass that continues, though nothing they read
  /// changed (a branch not taken would see its edit).
  mutating func requeueLazyRemaining(after node: Int32) {
    var next: Int32? = node
    while let current = next {
      if mustRunAfterStop(current) { markDirty(current) }
      next = queue.popMin().map { graph.order.nodeAt[Int($0)] }
    }
  }

  /// `mustRun(_:)` counting, for a lazy node, only the inputs it reads (`reads(_:from:)`).
  func mustRunAfterStop(_ node: Int32) -> Bool {
    let index = Int(node)
    if lazy.dirtyStamp[index] == pass || lazy.missed[index] { return true }
    for port in 0..<graph.inputCount(of: node) {
      let source = graph.sourceNode(of: node, input: port)
      if source >= 0 && graph.record(source).changedStamp == pass && reads(node, from: source) { return true }
    }
    return false
  }

  /// Whether `node` must run in this pass: it was dirty, missed a change, or an input changed.
  func mustRun(_ node: Int32) -> Bool {
    let index = Int(node)
    if lazy.dirtyStamp[index] == pass || lazy.missed[index] { return true }
    for port in 0..<graph.inputCount(of: node) {
      let source = graph.sourceNode(of: node, input: port)
      if source >= 0 && graph.record(source).changedStamp == pass { return true }
    }
    return false
  }

  /// Marks an unnecessary node stale (demand-driven passes), and its descendants the first time.
  mutating func markStale(_ start: Int32) {
    var stack: [Int32] = [start]
    while let node = stack.popLast() {
      guard !demand.stale[Int(node)] else { continue }
      demand.stale[Int(node)] = true
      for successor in graph.successors(of: node) { stack.append(successor) }
    }
  }

  /// `node` changed in this pass: it is stamped, and each successor reading it (over an eager
  /// edge, or a lazy one it asked for) is queued if eagerly needed, left to its region's sweep
  /// if brought up, and otherwise marked as having missed a change.
  mutating func noteLazyChange(of node: Int32) {
    graph.storage.records[Int(node)].changedStamp = pass
    let successors = Array(graph.successors(of: node))
    for successor in successors {
      let index = Int(successor)
      guard graph.flags(of: successor).isDisjoint(with: .inert), reads(successor, from: node) else { continue }
      if lazy.eager[index] {
        enqueue(successor)
      } else if lazy.caughtStamp[index] == pass {
        continue
      } else if options.demandDriven && demand.counts[index] == 0 {
        markStale(successor)
      } else {
        lazy.missed[index] = true
      }
    }
  }

  /// Whether `node` reads `source` through an eager input, or a lazy one it last asked for.
  func reads(_ node: Int32, from source: Int32) -> Bool {
    guard graph.flags(of: node).contains(.lazy), let lazyPorts = graph.configuration(of: node).lazyPorts else {
      return true
    }
    let needs = lazy.needs[node]
    for port in 0..<Int(graph.inputCount(of: node)) where graph.sourceNode(of: node, input: Int32(port)) == source {
      if !lazyPorts[port] { return true }
      if let needs, port < needs.count, needs[port] { return true }
    }
    return false
  }

  /// Brings up the region behind `source` for a lazy node's first step: the ancestors of
  /// `source` over eager edges that the pass has not computed, swept in topological order.
  ///
  /// - Complexity: O(*r* log *r*) for a region of *r* nodes (and their edges).
  mutating func bringUp(_ source: Int32, scratch: inout EvaluationScratch, log: inout PassLog) {
    guard source >= 0, !isNeededInPass(source), graph.flags(of: source).isDisjoint(with: .inert) else { return }
    lazy.caughtStamp[Int(source)] = pass
    var region: [Int32] = []
    var stack: [Int32] = [source]
    while let node = stack.popLast() {
      region.append(node)
      let lazyPorts = graph.flags(of: node).contains(.lazy) ? graph.configuration(of: node).lazyPorts : nil
      for port in 0..<graph.inputCount(of: node) where lazyPorts?[Int(port)] != true {
        let input = graph.sourceNode(of: node, input: port)
        guard input >= 0, !isNeededInPass(input) else { continue }
        lazy.caughtStamp[Int(input)] = pass
        stack.append(input)
      }
    }
    let positions = graph.order.position
    region.sort { positions[Int($0)] < positions[Int($1)] }
    lazy.brought.append(contentsOf: region)
    for node in region { lazyStep(node, brought: true, scratch: &scratch, log: &log) }
  }
}
