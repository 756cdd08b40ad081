extension FlowEngine {
  /// Bytes held by the engine's evaluator (`GraphEvaluator.memoryFootprint`), for
  /// `flow-bench`'s memory rows; waits for a running pass to finish.
  package var memoryFootprint: (bytes: Int, nodes: Int) {
    get async { await core.read { $0.memoryFootprint } }
  }
}

extension FlowEngine {
  /// What the table memory budget did as of the last completed pass (waits if a pass runs);
  /// `nil` without `EngineOptions.tableMemoryBudget`.
  public var tableMemory: TableMemoryStatistics? {
    get async { await core.read { $0.tableMemory } }
  }
}
