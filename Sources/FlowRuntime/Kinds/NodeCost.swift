/// How expensive one evaluation of a node is, which decides whether the scheduler may run it
/// in a child task (worth it only for work well above the cost of a task: ~100 µs).
public enum NodeCost: Sendable, Hashable {
  /// Runs inline on the pass's own task: arithmetic, small lookups.
  case cheap
  /// May run concurrently with other expensive nodes in a child task.
  case expensive
}
