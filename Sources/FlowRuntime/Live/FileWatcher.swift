/// The one file-watching mechanism, behind `watch: true` (`FileWatchSource`, on the engine's
/// clock) and `flow serve`'s reload (on the clock its session is given): a pure comparison of
/// the file's signature (its bytes, or its modification time, size and inode) with the last
/// one seen, and polling on an injected clock.
package struct FileWatcher<Signature: Equatable & Sendable>: Sendable {
  /// The signature seen last (`nil`: none yet, or the file was missing).
  package private(set) var last: Signature?

  package init(last: Signature? = nil) { self.last = last }

  /// Takes `current` as seen; whether the file changed: it is there (`current` is not `nil`)
  /// and differs from what was seen last.
  package mutating func see(_ current: Signature?) -> Bool {
    defer { last = current }
    return current != nil && current != last
  }

  /// Sleeps `interval` on `clock`, then calls `check`, again and again until the task is
  /// cancelled (the sleep throws) or `check` throws.
  package static func poll(
    every interval: Duration, on clock: any Clock<Duration>, _ check: () async throws -> Void
  ) async throws {
    while true {
      try await clock.sleep(for: interval)
      try await check()
    }
  }
}
