import FlowGraph
import FlowRuntime
import Foundation

/// Polls a file's modification time, size and inode every `interval` on `clock` and calls
/// `changed` when any differs from what it last saw (including after a Save, which notes its
/// own write): a `FileWatcher` over the `Stamp`.
final class ServeFileWatcher: Sendable {
  struct Stamp: Sendable, Equatable {
    var modified: Date?
    var size: Int?
    var inode: Int?
  }

  let path: String
  let interval: Duration
  let clock: any Clock<Duration>
  let changed: @Sendable () -> Void
  let last: Locked<FileWatcher<Stamp>>
  let task = Locked<Task<Void, Never>?>(nil)

  init(
    path: String, interval: Duration, clock: any Clock<Duration> = ContinuousClock(),
    changed: @escaping @Sendable () -> Void
  ) {
    self.path = path
    self.interval = interval
    self.clock = clock
    self.changed = changed
    last = Locked(FileWatcher(last: Self.stamp(path)))
  }

  static func stamp(_ path: String) -> Stamp? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
    return Stamp(
      modified: attributes[.modificationDate] as? Date, size: (attributes[.size] as? NSNumber)?.intValue,
      inode: (attributes[.systemFileNumber] as? NSNumber)?.intValue)
  }

  func start() {
    let interval = interval, clock = clock
    let polling = Task<Void, Never> { [weak self] in
      try? await FileWatcher<Stamp>.poll(every: interval, on: clock) {
        guard let self, !Task.isCancelled else { throw CancellationError() }
        self.check()
      }
    }
    task.withLock { $0 = polling }
  }

  /// Compares the file with what was last seen; calls `changed` if it differs.
  func check() {
    let now = Self.stamp(path)
    let differs = last.withLock { $0.see(now) }
    if differs { changed() }
  }

  /// Takes the file as it is now as seen (after writing it ourselves).
  func noteCurrentStamp() { last.withLock { $0 = FileWatcher(last: Self.stamp(path)) } }

  func stop() {
    task.withLock {
      $0?.cancel()
      $0 = nil
    }
  }
}
