import Dispatch

/// Keeps a `flow run`'s tables in the cache while the pass goes on: the evaluator offers each
/// node as it settles (`GraphEvaluator+CacheKeeping.swift`), and an entry for a node with a
/// table output is encoded and written on one background queue, overlapping the rest of the
/// pass. The entry holds the node's values (shared, not copied), so the pass may release the
/// node's tables once its readers ran (`EngineOptions.releasesConsumedTables`); the memory goes
/// when the entry is written.
///
/// Only nodes whose values are final when they settle are taken here: those with a key, not
/// served, not an inner stage of a chain that streamed (a placeholder), not printed (printed
/// nodes are never released) and not writers (their entry records the target as left after
/// the pass).
/// Everything else — and everything when the pass does not release tables — is kept after the
/// pass by `RunCachePlan.keep`, which skips the nodes `finish()` names. Entries are written
/// exactly as `keep` writes them (`RunCache.store`: temporary file, rename), so an entry is the
/// same whichever path wrote it.
package final class RunCacheKeeper: Sendable {
  private struct State {
    var offered: Set<String> = []
    var written = 0
    var failures: [(id: String, message: String)] = []
    var finished = false
  }

  private let cache: RunCache
  /// The nodes this keeper may take: key and output count.
  private let eligible: [String: (key: CacheKey, outputs: Int)]
  private let queue = DispatchQueue(label: "flow.run-cache.keeper")
  private let group = DispatchGroup()
  private let state = Locked(State())

  /// Says, when a node settles, whether its outputs are placeholders rather than its values
  /// (an inner stage of a chain that streamed).
  private let isPlaceholder: @Sendable (String) -> Bool

  /// A keeper for `plan`'s run, which prints `shown`.
  package init(plan: RunCachePlan, shown: [String], isPlaceholder: @escaping @Sendable (String) -> Bool) {
    let printed = Set(shown)
    var eligible: [String: (key: CacheKey, outputs: Int)] = [:]
    for (id, node) in plan.keys.nodes {
      guard let key = node.key, !node.role.isWriter, !plan.served.contains(id), !printed.contains(id) else { continue }
      eligible[id] = (key, node.outputs.count)
    }
    self.cache = plan.cache
    self.eligible = eligible
    self.isPlaceholder = isPlaceholder
  }

  /// Whether `id` is a node this keeper may take (a cheap test before gathering its values).
  package func wants(_ id: String) -> Bool { eligible[id] != nil }

  /// `id` settled with `values`: when one of them is a table, its entry is written in the
  /// background. A node is taken once; after `finish()` nothing is.
  package func offer(_ id: String, values: [(port: String, value: Value)]) {
    guard let node = eligible[id], values.count == node.outputs, values.contains(where: { $0.value.tableValue != nil }),
      !isPlaceholder(id)
    else { return }
    let taken = state.withLock { state in
      guard !state.finished else { return false }
      return state.offered.insert(id).inserted
    }
    guard taken else { return }
    let entry = CacheEntry(outputs: values)
    queue.async(group: group) { [self] in
      do {
        let bytes = try self.cache.store(entry, under: node.key)
        if bytes > 0 { self.state.withLock { $0.written += 1 } }
      } catch {
        self.state.withLock { $0.failures.append((id, "\(error)")) }
      }
    }
  }

  /// Waits for every entry offered so far to be written (no temporary file outlives this
  /// call), reports failures through the cache's warnings once, and returns the nodes taken
  /// (kept or failed: `RunCachePlan.keep` skips them) and the entries written.
  @discardableResult
  package func finish() -> (taken: Set<String>, written: Int) {
    state.withLock { $0.finished = true }
    group.wait()
    let (taken, written, failures) = state.withLock { state in
      let failures = state.failures
      state.failures = []
      return (state.offered, state.written, failures)
    }
    for failure in failures {
      cache.warn("flow: warning: the cache could not keep node '\(failure.id)': \(failure.message)")
    }
    return (taken, written)
  }
}
