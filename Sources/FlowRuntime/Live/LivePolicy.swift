/// When a live node runs (SwiftFlow `LiveNode` mount policies, headless).
///
/// A node's policy is its kind's default, overridden by the node param `policy`
/// (`"persistent"` or `"onDemand"`).
public enum LivePolicy: String, Sendable, Hashable, CaseIterable {
  /// Running whenever the node is in the graph.
  case persistent
  /// Running only while some observed node depends on it (the node is *necessary*).
  case onDemand
}
