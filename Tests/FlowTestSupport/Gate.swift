import FlowGraph

/// A one-shot gate that a node's synchronous `evaluate` can block on until a test opens it,
/// and that tells the test when evaluation reached it. No sleeping: the test awaits `reached`.
public final class Gate: Sendable {
  private let state = Locked<Bool>(false)
  private let reachedContinuation: AsyncStream<Void>.Continuation
  /// Yields once each time an evaluation arrives at the gate.
  public let reached: AsyncStream<Void>

  public init() {
    (reached, reachedContinuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .unbounded)
  }

  public var isOpen: Bool { state.withLock { $0 } }

  /// Lets every waiting and future evaluation pass.
  public func open() { state.withLock { $0 = true } }

  /// Blocks the calling thread until the gate opens, or returns early (`false`) when the
  /// current task is cancelled. Used from node evaluators only.
  @discardableResult
  public func pass() -> Bool {
    reachedContinuation.yield()
    while !state.withLock({ $0 }) {
      if Task.isCancelled { return false }
      sched_yield()
    }
    return true
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
