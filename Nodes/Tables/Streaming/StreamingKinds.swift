import FlowRuntime

/// A kind a streamed chain passes morsels through (`StreamingPlan`): its one table input's
/// rows become its output each on its own, in order, so its outputs on the morsels,
/// concatenated, are its output on the whole table (`filter`, `derive`, `select`).
protocol RowLocalKind: NodeKind {}

/// A row-local kind's evaluator that can run its kernels on fewer threads: a streamed chain
/// whose reader transforms several morsels at once runs each morsel's stages on that
/// morsel's thread (more threads would only contend with the other morsels').
protocol RowLocalEvaluator: NodeEvaluator {
  /// The most threads its kernels run on (the run's `EvaluationEnvironment.workers`).
  var workers: Int { get set }
}

extension RowLocalEvaluator {
  /// This evaluator with its kernels on at most `workers` threads.
  func limited(toWorkers workers: Int) -> Self {
    var limited = self
    limited.workers = Swift.min(self.workers, Swift.max(1, workers))
    return limited
  }
}

/// A kind a streamed chain starts at: a reader whose evaluator is a `MorselSource`
/// (`readCSV`, `readParquet`).
protocol MorselSourceKind: NodeKind {}

/// A kind that may end a streamed chain, taking its morsels itself (`groupBy` folds them into
/// running aggregates, `writeCSV` appends each one's rows to its file), instead of their
/// concatenated table.
protocol MorselSinkKind: NodeKind {
  /// How the chain ends at this kind.
  var streamedEnd: StreamedChain.End { get }
  /// Whether a node with `spec` may end a chain (a `groupBy` whose aggregates all stream).
  func streams(_ spec: NodeSpec) -> Bool
}
