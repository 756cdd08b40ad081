import FlowGraph
import Foundation

/// Polls a file's modification time, size and inode every `interval` and calls `changed` when
/// any differs from what it last saw (including after a Save, which notes its own write).
final class ServeFileWatcher: Sendable {
  struct Stamp: Sendable, Equatable {
    var modified: Date?
    var size: Int?
    var inode: Int?
  }

  let path: String
  let interval: Duration
  let changed: @Sendable () -> Void
  let last: Locked<Stamp?>
  let task = Locked<Task<Void, Never>?>(nil)

  init(path: String, interval: Duration, changed: @escaping @Sendable () -> Void) {
    self.path = path
    self.interval = interval
    self.changed = changed
    last = Locked(Self.stamp(path))
  }

  static func stamp(_ path: String) -> Stamp? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
    return Stamp(
      modified: attributes[.modificationDate] as? Date, size: (attributes[.size] as? NSNumber)?.intValue,
      inode: (attributes[.systemFileNumber] as? NSNumber)?.intValue)
  }

  func start() {
    let interval = interval
    let polling = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: interval)
        guard let self, !Task.isCancelled else { return }
        self.check()
      }
    }
    task.withLock { $0 = polling }
  }

  /// Compares the file with what was last seen; calls `changed` if it differs.
  func check() {
    let now = Self.stamp(path)
    let differs = last.withLock { last -> Bool in
      defer { last = now }
      return now != nil && last != now
    }
    if differs { changed() }
  }

  /// Takes the file as it is now as seen (after writing it ourselves).
  func noteCurrentStamp() { last.withLock { $0 = Self.stamp(path) } }

  func stop() {
    task.withLock {
      $0?.cancel()
      $0 = nil
    }
  }
}
