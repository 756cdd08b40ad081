/// What the table memory budget (`EngineOptions.tableMemoryBudget`) did: the bytes the kept
/// intermediate tables hold, and how many tables it dropped and had recomputed.
///
/// `GraphEvaluator.tableMemory` and `FlowEngine.tableMemory` report it; both are `nil` when no
/// budget is set.
public struct TableMemoryStatistics: Sendable, Hashable {
  /// The budget, in bytes.
  public var budget: Int
  /// Bytes the droppable intermediate tables hold now (estimated from their columns).
  public var heldBytes: Int
  /// The most `heldBytes` after any pass (never above `budget` once that pass dropped tables).
  public var peakHeldBytes: Int
  /// How many times a node's tables were dropped since the evaluator was made.
  public var evictions: Int
  /// How many times a dropped node was recomputed because a consumer or an observer needed it
  /// (reads of a dropped node through `outputs(of:)` recompute it without keeping it, and are
  /// not counted).
  public var recomputations: Int
  /// The ids of the nodes whose tables the last pass dropped, least recently used first.
  public var lastEvicted: [String]
  /// The ids of the dropped nodes the last pass recomputed, in the order it did.
  public var lastRecomputed: [String]
  /// The ids of the nodes whose tables are dropped now.
  public var dropped: Set<String>

  /// The bytes the budget counts for `value` (its table's columns; 0 for anything else).
  package static func estimatedBytes(of value: Value) -> Int { TableBudget.tableBytes(of: value) }
}
