/// `FlowEngine.values(of:)`: a node's state, starting with the current one, each element
/// tagged with the revision it is the state of.
///
/// Nothing is registered when the sequence is made: each iterator subscribes when it is made
/// (`for await` makes it when the loop begins). Its first element is the node's current state
/// — as of the last completed pass — when a pass has completed and none is running; otherwise
/// (before the first pass, or while a pass runs) it is the state the next completed pass
/// publishes. Then each completed pass that changes the state (new outputs, a failure or a
/// recovery, pending, not computed) yields it. Revisions never decrease.
///
/// Latest only: an iterator buffers one element, so a reader that falls behind gets the
/// newest state when it next asks, never a backlog of stale ones. An unknown (or removed) id
/// yields nothing until a node with that id exists. An iterator made after
/// `FlowEngine.shutDown()` yields the current state and ends. Subscribing does not observe the
/// node: under `EngineOptions.demandDriven`, `observe(_:)` it to have it computed.
public struct NodeValues: AsyncSequence, Sendable {
  public typealias Element = NodeUpdate
  public typealias Failure = Never

  let core: EngineCore
  /// The node followed.
  public let nodeID: String

  /// Subscribes: the iterator's first element is the current state.
  public func makeAsyncIterator() -> Iterator { Iterator(base: core.subscribeToValues(of: nodeID).makeAsyncIterator()) }

  /// One subscription to a node's state.
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncStream<NodeUpdate>.Iterator

    /// The next state; `nil` once the engine shut down or the task was cancelled.
    public mutating func next() async -> NodeUpdate? { await base.next() }

    /// The next state, on the caller's actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> NodeUpdate? {
      await base.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension NodeValues.Iterator: Sendable {}
