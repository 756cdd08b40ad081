import Foundation

/// Options of evaluation passes.
public struct EngineOptions: Sendable, Hashable {
  /// The limits of the run (rows, string bytes, memory; Reference.md, "Files and limits"), or `nil` for those of the
  /// registry's environment (`EvaluationEnvironment.limits`, by default `RunLimits()`).
  ///
  /// Kinds check limits as they build, with what they were configured with: an engine made
  /// from a document or graph configures its nodes under these limits. An engine made over an
  /// existing `FlowStore` uses them for its own checks of every node's outputs, while the
  /// store's nodes keep the limits of the registry the store was made with: set
  /// `registry.environment.limits` there too.
  public var limits: RunLimits?

  /// Time every node and put the durations in the report. Off by default: reading the clock
  /// twice per node costs more than a cheap node. Expensive nodes are always timed.
  public var timesEveryNode = false
  /// Run expensive nodes in child tasks, concurrently with each other and with cheap nodes.
  /// Results are identical either way.
  public var runsExpensiveNodesConcurrently = true
  /// At most this many child tasks are in flight at once (default: two per core, so a core
  /// that finishes a node finds the next one queued instead of waiting for the pass to
  /// dispatch it).
  public var maximumConcurrentNodes: Int
  /// Compute only *necessary* nodes: those an observer depends on (`observe`). Off by default
  /// for embedding (every node is kept up to date); `flow run` turns it on.
  public var demandDriven = false
  /// How many emissions of live sources may wait for their pass; a source that runs ahead
  /// suspends until the engine has drained the buffer (back-pressure).
  public var emissionBufferCapacity = 64
  /// Stop taking emissions once this many were processed (`flow run --live --ticks N`);
  /// `nil`: no limit. `FlowEngine.stopEmissions(after:)` changes it later.
  public var emissionLimit: Int?
  /// Run a cheap pass on the thread that changed the store, before `updateNode` (or any other
  /// mutation) returns, instead of waking the runner task: `updateNode` → values published in
  /// a few µs, and the `evaluate()` that follows returns without suspending. A pass is cheap
  /// when the engine is idle, no live source or expensive node is in the graph, and at most
  /// `synchronousPassLimit` nodes are dirty; it stops after `synchronousPassBudget` and hands
  /// the rest to the runner. On by default; turn it off when a node declared cheap may block
  /// (the mutating thread would wait for it) or to keep every pass off the caller's thread.
  public var runsCheapPassesSynchronously = true
  /// At most this many dirty nodes (after applying the change) for a synchronous pass.
  public var synchronousPassLimit = 64
  /// A synchronous pass running longer than this stops between nodes and hands the rest of
  /// its work to the runner task, which completes it in a continuation of the same report.
  public var synchronousPassBudget: Duration = .microseconds(200)
  /// Call kinds' `ScalarEvaluation` (the typed fast path) where it applies. On by default; off
  /// only to compare the two paths (they give identical values and reports).
  public var usesScalarEvaluation = true
  /// In a long-lived engine, the most bytes intermediate tables may keep (estimated from
  /// their columns); `nil` (the default): no limit. After each pass the least recently used
  /// tables of derived nodes (not live, with a connected input) that nobody observes are
  /// dropped until they fit, and recomputed from their inputs when a consumer must run or an
  /// observer asks for them; that is not a change, so nothing reruns on its account (see
  /// `Documentation/TableMemoryBudget.md`). Set it when the engine is made.
  public var tableMemoryBudget: Int?
  /// For a host that reads only the observed nodes once the pass is done (`flow run`): once
  /// every necessary node reading a node's outputs has run in the pass, the tables among those
  /// outputs are released (unless the node is observed) and the node is marked dirty, so a
  /// later pass computes it again. Peak memory is then what is alive at once, not the sum of
  /// every intermediate table. Off by default (`GraphEvaluator+Release.swift`).
  public var releasesConsumedTables = false
  /// Under `SupersessionPolicy.replaceRunningPass`, the most time between two publications
  /// while changes keep arriving: once the last publication is this old, a change no longer
  /// stops the running pass; it completes and publishes (a consistent state of its revision)
  /// and the next pass takes the changes that queued. `nil` (the default): every change
  /// supersedes the running pass, so a sustained burst of edits publishes only when it ends.
  /// Recommended for interactive apps (e.g. `.milliseconds(50)`): what is displayed is never
  /// staler than about this plus one pass.
  public var publishInterval: Duration?
  /// A folder of node outputs kept between processes (`FlowCache`), or `nil` (the default).
  /// With one, the first pass serves each node whose key has an entry — its report's
  /// `fromCache` — and skips what only served nodes need; after each pass the outputs worth
  /// keeping are written. An edit that reaches a served node rebuilds the engine's graph from
  /// the edited document (nodes whose key did not change keep their values, so exactly the
  /// edited node and its descendants run; evaluation counts restart). Not consulted for
  /// graphs with live nodes. Set it when the engine is made.
  public var cache: FlowCache?

  public init(
    timesEveryNode: Bool = false, runsExpensiveNodesConcurrently: Bool = true,
    maximumConcurrentNodes: Int = EngineOptions.defaultConcurrency, demandDriven: Bool = false,
    emissionBufferCapacity: Int = 64, runsCheapPassesSynchronously: Bool = true
  ) {
    self.runsCheapPassesSynchronously = runsCheapPassesSynchronously
    self.timesEveryNode = timesEveryNode
    self.runsExpensiveNodesConcurrently = runsExpensiveNodesConcurrently
    self.maximumConcurrentNodes = max(1, maximumConcurrentNodes)
    self.demandDriven = demandDriven
    self.emissionBufferCapacity = max(1, emissionBufferCapacity)
  }

  /// Two child tasks per active core.
  public static var defaultConcurrency: Int { max(2, 2 * ProcessInfo.processInfo.activeProcessorCount) }
}
