import FlowGraph

/// One run with the cache: which nodes the cache serves, the document and registry that run
/// the rest, and, after the pass, keeping what the pass computed.
///
/// The hook is a rewrite, not a second mechanism in the engine. From the printed nodes the
/// plan walks up the edges: a node whose key has a valid entry is served (for a writer: only
/// while its target still has the size and time it left it) and the walk stops there;
/// otherwise its sources are needed in turn. Each served node becomes a `flow.cached` node with
/// its original id and output ports and no incoming edges, so a demand-driven pass from the
/// printed nodes never reaches its ancestors: a run whose printed nodes are all served reads
/// no input file.
///
/// - Complexity: O(*n* + *m*) for the walk, plus one entry read per served node.
package struct RunCachePlan: Sendable {
  /// The nodes served from the cache's folder, in document order.
  package let fromCache: [String]
  /// Every node served: from the folder, or from `memory` (a host engine's own values).
  package let served: Set<String>
  /// The document to evaluate (served nodes rewritten, their incoming edges removed).
  package let document: FlowDocument
  /// The registry to evaluate it with (it knows `flow.cached`).
  package let registry: NodeKindRegistry
  /// The keys of the original document's nodes (a host engine updates them as edits that
  /// reach no served node apply to its graph).
  package var keys: RunCacheKeys
  /// The printed nodes: those asked for, else the original document's sinks (nodes with
  /// outputs that no edge reads; the rewrite makes new ones, which are not printed).
  package let shown: [String]
  let cache: RunCache

  /// Plans a run of `document` that prints `requested`, or its sinks that `printable` accepts
  /// when `requested` is `nil`.
  ///
  /// - Parameters:
  ///   - keys: the document's keys, when the caller computed them already.
  ///   - memory: values a host engine holds, by node, with the key they were computed under:
  ///     a node (not a writer) whose key is the same is served from them before the folder.
  package init(
    document: FlowDocument, registry: NodeKindRegistry, requested: [String]?,
    printable: (String) -> Bool = { _ in true }, cache: RunCache, keys known: RunCacheKeys? = nil,
    memory: [String: (key: CacheKey, values: [Value])] = [:]
  ) {
    let keys =
      known
      ?? RunCacheKeys(
        document: document, registry: registry, productVersion: cache.productVersion,
        verifiesReads: cache.verifiesReads)
    let shown: [String]
    if let requested {
      shown = requested
    } else {
      let feeding = Set(document.edges.map(\.sourceNodeID))
      shown = document.nodes.map(\.id).filter { id in
        !feeding.contains(id) && !(keys.nodes[id]?.outputs.isEmpty ?? true) && printable(id)
      }
    }
    self.shown = shown
    var served: [String: (outputs: [PortDeclaration], values: [Value])] = [:]
    var fromFolder = Set<String>()
    var visited = Set<String>()
    var stack = shown
    while let id = stack.popLast() {
      guard visited.insert(id).inserted, let node = keys.nodes[id] else { continue }
      if let key = node.key {
        if let kept = memory[id], kept.key == key, kept.values.count == node.outputs.count, !node.role.isWriter {
          served[id] = (node.outputs, kept.values)
          continue
        }
        if let values = Self.servable(node, key: key, cache: cache) {
          served[id] = (node.outputs, values)
          fromFolder.insert(id)
          continue
        }
      }
      stack.append(contentsOf: node.sources)
    }
    var rewritten = document
    if !served.isEmpty {
      for index in rewritten.nodes.indices where served[rewritten.nodes[index].id] != nil {
        rewritten.nodes[index].data = NodeSpec(
          kind: CachedValuesKind.kindName,
          params: ["node": .string(rewritten.nodes[index].id)])
        // A served node has no inputs: declared target handles (SwiftFlow's `handles`) go too.
        if rewritten.nodes[index].handles != nil { rewritten.nodes[index].handles = nil }
      }
      rewritten.edges.removeAll { served[$0.targetNodeID] != nil }
    }
    var wrapped = registry
    wrapped.register(CachedValuesKind(entries: served))
    fromCache = document.nodes.map(\.id).filter(fromFolder.contains)
    self.served = Set(served.keys)
    self.document = rewritten
    self.registry = wrapped
    self.keys = keys
    self.cache = cache
  }

  /// The values of `node`'s entry in port order, if the entry is there, holds every port
  /// with a value of its type, and (for a writer) its target is as the writer left it.
  private static func servable(_ node: RunCacheKeys.Node, key: CacheKey, cache: RunCache) -> [Value]? {
    guard let entry = cache.load(key) else { return nil }
    if case .writes(let target) = node.role {
      guard let kept = entry.target, let now = FileIdentity(path: target), now.size == kept.size,
        now.modified == kept.modified
      else { return nil }
    }
    var values: [Value] = []
    for port in node.outputs {
      guard let value = entry.value(of: port.name), value.isNull || value.conforms(to: port.type) else { return nil }
      values.append(value)
    }
    return values
  }

  /// Keeps what the pass computed: for each node that ran (not served), has a key and
  /// values, and is worth keeping — a table, a writer, a printed node, or a node that took at
  /// least `worthKeeping` — an entry; then evicts down to the cache's bound.
  ///
  /// - Parameters:
  ///   - report: the pass's report (which nodes ran, their times).
  ///   - shown: the printed nodes.
  ///   - skipping: nodes whose outputs are not their real values (the inner stages of a
  ///     streamed chain), or that a `RunCacheKeeper` took during the pass.
  ///   - evictsAlways: evict even when nothing was written (a run with a new bound); a host
  ///     engine evicts only after writing, so a cheap pass does not list the folder.
  /// - Returns: the number of entries written.
  @discardableResult
  package func keep(
    from evaluator: GraphEvaluator, report: EvaluationReport, shown: [String],
    skipping: Set<String> = [], evictsAlways: Bool = true
  ) -> Int {
    let printed = Set(shown), failed = report.failed, durations = report.durations
    var kept: [(id: String, key: CacheKey, entry: CacheEntry, size: Int)] = []
    for id in report.ran where !served.contains(id) && !skipping.contains(id) && failed[id] == nil {
      guard let node = keys.nodes[id], let key = node.key, let values = evaluator.portValues(of: id),
        values.count == node.outputs.count
      else { continue }
      // A node whose tables the pass released (its readers ran) no longer holds its values.
      if let index = evaluator.graph.indexByID[id], evaluator.dirtySet.marks[Int(index)] { continue }
      var target: FileIdentity?
      if case .writes(let path) = node.role {
        guard let identity = FileIdentity(path: path) else { continue }
        target = identity
      }
      let hasTable = values.contains { $0.value.tableValue != nil }
      guard hasTable || target != nil || printed.contains(id) || (durations[id] ?? .zero) >= Self.worthKeeping else {
        continue
      }
      let entry = CacheEntry(outputs: values, target: target)
      guard let size = CacheEntryCodec.encodedSize(entry) else { continue }
      kept.append((id, key, entry, size))
    }
    // Largest first, on every worker: the entries are independent files.
    let items = kept.sorted { $0.size > $1.size }
    let cache = cache
    let outcomes = TableParallelism.map(items.count, threads: items.count > 1 ? registry.environment.workers : 1) {
      index in
      do {
        let bytes = try cache.store(items[index].entry, under: items[index].key)
        return Result<Bool, CacheStoreFailure>.success(bytes > 0)
      } catch {
        return .failure(CacheStoreFailure(message: "\(error)"))
      }
    }
    var written = 0
    for (item, outcome) in zip(items, outcomes) {
      switch outcome {
      case .success(let stored): written += stored ? 1 : 0
      case .failure(let failure):
        cache.warn("flow: warning: the cache could not keep node '\(item.id)': \(failure.message)")
      }
    }
    if written > 0 || evictsAlways { cache.evict() }
    return written
  }

  /// A node's outputs are kept when it took at least this long (tables always are).
  package static let worthKeeping: Duration = .milliseconds(1)
}

/// Why an entry could not be written (the run goes on without it, with a warning).
struct CacheStoreFailure: Error, Sendable {
  let message: String
}
