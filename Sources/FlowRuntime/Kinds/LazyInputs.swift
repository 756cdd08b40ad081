/// What a lazy node sees when it says which lazy inputs it needs
/// (`LazyNodeEvaluator.neededInputs(given:)`): every eager input's value, and each lazy input
/// brought up to date so far, as a value or as a failure.
public struct LazyInputs: Sendable {
  /// One entry per port, in port order: `nil` for a lazy input not brought up to date yet.
  let entries: [Entry?]
  /// Whether an edge feeds each port.
  let connected: [Bool]

  /// An input's state once it is available.
  enum Entry: Sendable {
    case value(Value)
    case failed(String)
  }

  init(entries: [Entry?], connected: [Bool]) {
    self.entries = entries
    self.connected = connected
  }

  /// How many input ports the node has.
  public var count: Int { entries.count }

  /// Whether input `port` is available: an eager input, or a lazy one brought up to date.
  public func isAvailable(_ port: Int) -> Bool { entries[port] != nil }

  /// The value of input `port`, or `nil` while it is not available or when it failed.
  public func value(_ port: Int) -> Value? {
    if case .value(let value)? = entries[port] { return value }
    return nil
  }

  /// Why the node feeding input `port` failed, or `nil` when it did not (or is not available).
  public func failure(_ port: Int) -> String? {
    if case .failed(let message)? = entries[port] { return message }
    return nil
  }

  /// Whether an edge feeds input `port` (an unconnected input takes its param or default).
  public func isConnected(_ port: Int) -> Bool { connected[port] }
}
