/// Options of evaluation passes.
public struct EngineOptions: Sendable, Hashable {
  /// Time every node and put the durations in the report. Off by default: reading the clock
  /// twice per node costs more than a cheap node. Expensive nodes are always timed.
  public var timesEveryNode = false
  /// Run expensive nodes in child tasks, concurrently with each other and with cheap nodes.
  /// Results are identical either way.
  public var runsExpensiveNodesConcurrently = true
  /// At most this many child tasks run at once (default: one per core).
  public var maximumConcurrentNodes: Int

  public init(timesEveryNode: Bool = false, runsExpensiveNodesConcurrently: Bool = true,
              maximumConcurrentNodes: Int = EngineOptions.defaultConcurrency) {
    self.timesEveryNode = timesEveryNode
    self.runsExpensiveNodesConcurrently = runsExpensiveNodesConcurrently
    self.maximumConcurrentNodes = max(1, maximumConcurrentNodes)
  }

  /// One child task per active core.
  public static var defaultConcurrency: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}

import Foundation
