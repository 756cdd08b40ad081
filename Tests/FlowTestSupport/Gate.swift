import FlowGraph

/// A gate that a node's synchronous `evaluate` can block on until a test opens it (for good) or
/// admits one evaluation, and that tells the test when evaluation reached it. No sleeping: the
/// test awaits `reached`.
public final class Gate: Sendable {
  private struct State {
    var isOpen = false
    var admissions = 0
  }

  private let state = Locked(State())
  private let reachedContinuation: AsyncStream<Void>.Continuation
  /// Yields once each time an evaluation arrives at the gate.
  public let reached: AsyncStream<Void>

  public init() {
    (reached, reachedContinuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .unbounded)
  }

  public var isOpen: Bool { state.withLock { $0.isOpen } }

  /// Lets every waiting and future evaluation pass.
  public func open() { state.withLock { $0.isOpen = true } }

  /// Lets one waiting (or the next) evaluation pass; the gate stays shut for the others.
  public func admitOne() { state.withLock { $0.admissions += 1 } }

  /// Blocks the calling thread until the gate opens or admits it, or returns early (`false`)
  /// when the current task is cancelled. Used from node evaluators only.
  @discardableResult
  public func pass() -> Bool {
    reachedContinuation.yield()
    while !state.withLock({ state in
      if state.isOpen { return true }
      guard state.admissions > 0 else { return false }
      state.admissions -= 1
      return true
    }) {
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
