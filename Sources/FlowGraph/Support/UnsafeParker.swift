import Foundation

/// A wake-up call between threads: `wait()` blocks until `signal()` has been called — before
/// or after `wait()` started — then rearms. A store's mutating call parks on one while the
/// changes before its own are delivered (`ChangeDelivery`).
///
/// Why `@unchecked Sendable` is sound here: `signaled` is only read or written while
/// `condition` is locked; `NSCondition` is a `pthread` mutex and condition variable, which
/// ThreadSanitizer intercepts (see `Locked`).
final class Parker: @unchecked Sendable {
  private let condition = NSCondition()
  private var signaled = false

  /// Blocks until signalled, then consumes the signal.
  func wait() {
    condition.lock()
    while !signaled { condition.wait() }
    signaled = false
    condition.unlock()
  }

  /// Wakes the waiting thread, or the next `wait()`.
  func signal() {
    condition.lock()
    signaled = true
    condition.signal()
    condition.unlock()
  }

  /// An id of the calling thread, unique among running threads.
  static var currentThreadID: UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
  }
}
