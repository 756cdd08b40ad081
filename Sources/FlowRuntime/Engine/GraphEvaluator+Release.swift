// `EngineOptions.releasesConsumedTables`: a pass releases a node's tables once every node that
// reads them has run, so a one-shot run (`flow run`) holds what is alive at once rather than
// every intermediate table to the end.
//
// At a pass's start each node that may hold a table (an output typed `table` or `any`) gets a
// countdown: the input ports, over the graph, that read it and belong to a node the pass will run (a necessary node in a demand-driven pass, any present
// node otherwise). Each node that `run` settles — evaluated, failed through an input or pending —
// counts its inputs down; a node reaching zero that nobody observes has the tables among its
// outputs replaced by `null` and is marked dirty, so a later pass computes it again before
// anything reads it. A node whose consumers do not all run (a branch not taken, a pass that
// stops, a node on the typed scalar path) keeps its tables: the countdown errs only that way.

import FlowGraph

extension GraphEvaluator {
  /// Counts, for each node that may hold a table, the reads of its outputs the pass will make;
  /// leaves the countdown empty when no node may (a graph of numbers releases nothing, and its
  /// pass then counts nothing down).
  ///
  /// - Complexity: O(*n* + *m*).
  mutating func prepareReleases() {
    // One scan in node order first: the count below reads its sources in random order.
    guard (0..<Int32(graph.nodeCount)).contains(where: { graph.flags(of: $0).contains(.tables) }) else {
      releaseCountdown = []
      return
    }
    var remaining = [Int32](repeating: 0, count: graph.nodeCount)
    for node in 0..<Int32(graph.nodeCount) where graph.flags(of: node).isDisjoint(with: .inert) {
      if options.demandDriven && demand.counts[Int(node)] == 0 { continue }
      for port in 0..<graph.inputCount(of: node) {
        let source = graph.sourceNode(of: node, input: port)
        if source >= 0 && graph.flags(of: source).contains(.tables) { remaining[Int(source)] += 1 }
      }
    }
    releaseCountdown = remaining
  }

  /// `node` was settled in this pass: a cache keeper is offered its outputs
  /// (`GraphEvaluator+CacheKeeping.swift`), each input's countdown goes down, and a source read
  /// for the last time releases its tables.
  mutating func countDownInputs(of node: Int32) {
    if let cacheKeeper { offerToCache(node, cacheKeeper) }
    guard !releaseCountdown.isEmpty else { return }
    for port in 0..<graph.inputCount(of: node) {
      let source = graph.sourceNode(of: node, input: port)
      guard source >= 0, releaseCountdown[Int(source)] > 0 else { continue }
      releaseCountdown[Int(source)] -= 1
      if releaseCountdown[Int(source)] == 0 { releaseTables(of: source) }
    }
  }

  /// Replaces the tables among `node`'s outputs by `null` and marks it dirty, unless it is
  /// observed, live or holds no table.
  mutating func releaseTables(of node: Int32) {
    let record = graph.record(node)
    let slots = Int(record.outputStart)..<Int(record.outputStart) + Int(record.outputCount)
    // The table test first: most nodes hold none, and the observers are looked up by id.
    guard record.flags & EvaluationGraph.Flags.live.rawValue == 0,
      slots.contains(where: { if case .table = graph.value(inSlot: $0) { true } else { false } }),
      (demand.observers[graph.ids[Int(node)]] ?? 0) == 0
    else { return }
    for slot in slots {
      guard case .table = graph.value(inSlot: slot) else { continue }
      _ = graph.store(.null, inSlot: slot)
    }
    markDirty(node)
  }
}
