import FlowGraph
import FlowRuntime

/// Bounded memory for a one-shot run: the chains of a document that `flow run` executes morsel
/// by morsel (`StreamedChain`), installed in the run's evaluator by node id (`install(in:)`).
///
/// A chain is a reader (a `MorselSourceKind`: `readCSV`, `readParquet`) that no edge feeds and that does not
/// watch its file, then the row-local nodes (`RowLocalKind`: `filter`, `derive`, `select`) that follow it one by one — each fed by one edge, from
/// the node before, which has no other consumer — and then, if that last node's one consumer
/// is a `MorselSinkKind` fed by it alone that streams (a `groupBy` without `countDistinct`, a
/// `writeCSV`), that node. A chain has at least two nodes. Its intermediate tables are never held whole;
/// its last node's table is (a `groupBy`'s is small; a `writeCSV` has none: each morsel's rows
/// go to the atomic temporary file). Only the host knows what it prints: the sinks (a chain's
/// intermediate nodes have a consumer, so none is a sink) and the `observed` nodes, which may
/// end a chain but are never inside one.
package struct StreamingPlan {
  package let chains: [StreamedChain]

  /// The plan for `document`, or `nil` if it has no chain (or its ids are not unique).
  ///
  /// - Parameter morselBytes: the bytes of a morsel (a block of the file; at least one record).
  /// - Complexity: O(nodes + edges).
  /// - Parameter observed: nodes the host prints or watches besides the sinks (`--node`): such
  ///   a node may end a chain (its table is built whole) but is never inside one.
  package init?(document: FlowDocument, registry: NodeKindRegistry, morselBytes: Int, observed: Set<String> = []) {
    // Which kinds start a chain and which it passes morsels through, by their protocols, asked
    // once per kind the document uses (a protocol cast's first answer for a type scans the
    // process's conformance records; casting every registered kind cost ~5 ms of each run).
    // Chains start at a reader: a document without one (a calculator, a million-node graph of
    // numbers) pays one lookup per node instead of the index and adjacency.
    var roles: [String: Role] = [:]
    func role(_ name: String) -> Role {
      if let known = roles[name] { return known }
      let kind = registry.kind(named: name)
      let found = Role(
        head: kind is any MorselSourceKind, rowLocal: kind is any RowLocalKind, sink: kind as? any MorselSinkKind)
      roles[name] = found
      return found
    }
    guard document.nodes.contains(where: { role($0.data.kind).head }) else { return nil }
    var index: [String: Int] = [:]
    index.reserveCapacity(document.nodes.count)
    for (position, node) in document.nodes.enumerated() where index.updateValue(position, forKey: node.id) != nil {
      return nil
    }
    var incoming = [Int](repeating: 0, count: document.nodes.count)
    var outgoing = [[(target: Int, edge: FlowEdge)]](repeating: [], count: document.nodes.count)
    for edge in document.edges {
      guard let source = index[edge.sourceNodeID], let target = index[edge.targetNodeID] else { return nil }
      incoming[target] += 1
      outgoing[source].append((target, edge))
    }
    /// The one consumer of `node`'s table, fed by that edge alone, if its kind has `wanted`.
    func next(_ node: Int, _ wanted: (Role) -> Bool) -> Int? {
      guard outgoing[node].count == 1 else { return nil }
      let (target, edge) = outgoing[node][0]
      guard incoming[target] == 1, wanted(role(document.nodes[target].data.kind)),
        edge.sourceHandleID ?? "table" == "table",
        edge.targetHandleID ?? "table" == "table"
      else { return nil }
      return target
    }
    var chains: [[Int]] = []
    var ends: [StreamedChain.End] = []
    for (position, node) in document.nodes.enumerated()
    where role(node.data.kind).head && incoming[position] == 0 && node.data.params["watch"] != .bool(true) {
      var chain = [position]
      func open() -> Bool { !observed.contains(document.nodes[chain[chain.count - 1]].id) }
      while open(), let following = next(chain[chain.count - 1], \.rowLocal) { chain.append(following) }
      var end = StreamedChain.End.collect
      if !open() {
        // The last node is printed: its table is built whole.
      } else if let sink = next(chain[chain.count - 1], { $0.sink != nil }),
        let kind = role(document.nodes[sink].data.kind).sink, kind.streams(document.nodes[sink].data)
      {
        chain.append(sink)
        end = kind.streamedEnd
      }
      guard chain.count >= 2 else { continue }
      chains.append(chain)
      ends.append(end)
    }
    guard !chains.isEmpty else { return nil }
    self.chains = chains.enumerated().map { number, chain in
      StreamedChain(
        nodeIDs: chain.map { document.nodes[$0].id }, end: ends[number], morselBytes: morselBytes,
        limits: registry.environment.limits)
    }
  }

  /// Makes the chains' nodes of `evaluator` (made from the plan's document) evaluate as their
  /// chain's stages: each node's own evaluator, recorded in its chain, is wrapped by a
  /// `StageEvaluator` (`GraphEvaluator.wrapEvaluator(of:_:)`, by node id). A chain one of whose
  /// nodes is missing runs materialized.
  package func install(in evaluator: inout GraphEvaluator) {
    for chain in chains {
      for (stage, id) in chain.nodeIDs.enumerated() {
        evaluator.wrapEvaluator(of: id) { base in
          chain.setEvaluator(base, at: stage)
          return StageEvaluator(chain: chain, stage: stage, base: base)
        }
      }
    }
  }

  /// The times of the nodes of the chains that streamed (the engine's are the heads' whole
  /// chains and the others' hand-overs).
  package var streamedDurations: [String: Duration] {
    var durations: [String: Duration] = [:]
    for chain in chains { durations.merge(chain.streamedDurations ?? [:]) { $1 } }
    return durations
  }

  /// The nodes of the chains that streamed, chain by chain.
  package var streamedNodeIDs: [String] { chains.flatMap { $0.streamedDurations == nil ? [] : $0.nodeIDs } }
}

extension StreamingPlan {
  /// What a kind can be in a chain, by the streaming protocols it adopts.
  struct Role {
    var head: Bool
    var rowLocal: Bool
    var sink: (any MorselSinkKind)?
  }
}
