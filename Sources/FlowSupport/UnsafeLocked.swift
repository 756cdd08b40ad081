import Foundation

/// A value guarded by a lock, with `Synchronization.Mutex`'s `withLock` shape.
///
/// Why not `Mutex`: on Linux, `Mutex` locks with futex system calls inside the
/// uninstrumented `libswiftSynchronization`, so ThreadSanitizer cannot see the
/// happens-before edges it creates and reports every access it guards as a race. `.ci/run`
/// runs the concurrency suites under ThreadSanitizer, so shared state uses this type, built on
/// `NSLock` (a `pthread_mutex`, which ThreadSanitizer intercepts).
///
/// Why `@unchecked Sendable` is sound here: `value` is only read or written inside
/// `withLock`, which holds `lock` for the whole access, and `Value` is `Sendable`, so handing
/// it (or results computed from it) to other threads is safe.
///
/// Why its own target (`FlowSupport`, below every other): `FlowHTTP` depends on nothing else
/// of ours, and every module locks with this one type; `FlowGraph` re-exports it.
package final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  package init(_ value: Value) { self.value = value }

  /// Runs `body` with exclusive access to the value. Not reentrant: `body` must not call
  /// `withLock` on the same instance.
  package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
    -> Result
  {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
