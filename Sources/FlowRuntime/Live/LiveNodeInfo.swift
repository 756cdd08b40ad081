import FlowGraph

/// What the engine tells about one live node (`FlowEngine.liveNodes()`).
public struct LiveNodeInfo: Sendable, Hashable {
  public var id: String
  public var kind: String
  public var policy: LivePolicy
  /// A source whose task runs, or a stateful node that keeps its state (persistent, or
  /// `onDemand` and necessary).
  public var isRunning: Bool
  /// Whether a source has finished (read its file to the end, reached its limit).
  public var isFinished: Bool
  /// The committed state, as saved into `flowRuntime.liveState`.
  public var state: JSONValue
}
