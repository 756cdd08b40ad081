import Foundation

/// The temporary files of atomic writes (`AtomicFileWriter`): their names, the ones in flight,
/// and the removal of those a killed run left behind.
public enum TemporaryFiles {
  /// What marks a temporary file's name: `.<name>.flowtmp-<pid>-<random>`.
  static let marker = ".flowtmp-"

  private struct Entry { let folder: Int32; let name: String }

  private struct State {
    var inFlight: [Int: Entry] = [:]
    var nextKey = 0
    /// Folders (device, inode) swept in this process, with their change time after the last
    /// write: a folder changed since (by another process, or a new folder with a reused inode)
    /// is swept again.
    var swept: [[UInt64]: [Int]] = [:]
  }

  private static let state = Locked(State())

  /// Removes the temporary file of every write in flight, so a host exiting on a signal leaves
  /// none behind (the writes fail; the files they would replace are untouched). Returns how
  /// many it removed.
  ///
  /// Process-wide: call it only when the process is about to exit. A run that stopped and
  /// returned has no write in flight (each write removes its own file when it fails).
  @discardableResult
  public static func removeAll() -> Int { removeInFlight { _ in true } }

  /// Removes the temporary file of each write in flight whose temporary name satisfies
  /// `isRemoved` (tests use it so as not to touch the writes of tests running beside them).
  @discardableResult
  package static func removeInFlight(where isRemoved: (String) -> Bool) -> Int {
    state.withLock { state in
      var removed = 0
      for entry in state.inFlight.values where isRemoved(entry.name) && unlinkat(entry.folder, entry.name, 0) == 0 {
        removed += 1
      }
      return removed
    }
  }

  /// How many writes are in flight (for tests).
  package static var inFlightCount: Int { state.withLock { $0.inFlight.count } }

  /// A fresh temporary name for `name`, at most `limit` bytes long.
  static func name(for name: String, limit: Int) -> String {
    let suffix = marker + String(getpid()) + "-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
    let room = max(0, limit - 1 - suffix.utf8.count)
    var kept = ""
    var bytes = 0
    for character in name {
      bytes += character.utf8.count
      if bytes > room { break }
      kept.append(character)
    }
    return "." + kept + suffix
  }

  static func register(folder: Int32, name: String) -> Int {
    let copy = dup(folder)
    return state.withLock { state in
      state.nextKey += 1
      state.inFlight[state.nextKey] = Entry(folder: copy, name: name)
      return state.nextKey
    }
  }

  static func unregister(_ key: Int) {
    let entry = state.withLock { $0.inFlight.removeValue(forKey: key) }
    if let entry, entry.folder >= 0 { close(entry.folder) }
  }

  /// Before a write into `folder`, unless this process's last write left it unchanged: removes
  /// the temporary files there whose writer is gone (no lock held on them, and no process with
  /// their pid). Each write lists the folder at most once, and a run of writes into a folder
  /// nobody else changes lists it once.
  static func removeStale(in folder: Int32) {
    guard let (key, changed) = changeStamp(folder), state.withLock({ $0.swept[key] != changed }) else { return }
    for name in UnsafeFileSystem.entries(of: folder) where isStale(name, in: folder) { unlinkat(folder, name, 0) }
  }

  /// Records `folder` as it is after this process's write, so the next write need not sweep it.
  static func noteWritten(_ folder: Int32) {
    guard let (key, changed) = changeStamp(folder) else { return }
    state.withLock { $0.swept[key] = changed }
  }

  private static func changeStamp(_ folder: Int32) -> ([UInt64], [Int])? {
    var info = stat()
    guard fstat(folder, &info) == 0 else { return nil }
    let key = [UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino)]
    #if canImport(Darwin)
    let changed = [Int(info.st_ctimespec.tv_sec), Int(info.st_ctimespec.tv_nsec)]
    #else
    let changed = [Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec)]
    #endif
    return (key, changed)
  }

  /// The pid a temporary name carries, if it is one of ours.
  static func writer(of name: String) -> Int32? {
    guard name.hasPrefix("."), let range = name.range(of: marker, options: .backwards) else { return nil }
    let rest = name[range.upperBound...].split(separator: "-")
    guard rest.count == 2, UInt32(rest[1], radix: 16) != nil else { return nil }
    return Int32(rest[0])
  }

  private static func isStale(_ name: String, in folder: Int32) -> Bool {
    guard let pid = writer(of: name), pid != getpid() else { return false }
    guard kill(pid, 0) != 0 && errno == ESRCH else { return false }
    let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
    return flock(descriptor, LOCK_EX | LOCK_NB) == 0
  }

  /// Test seam, for a child-process test that signals `flow` mid-write
  /// (`EvaluationEnvironment.writeBarrier`, set by the debug build's hidden
  /// `flow run --test-write-barrier DIR`): creates `folder/ready` and waits until `folder/go`
  /// exists or `stopped()` (bounded: a minute).
  ///
  /// - Throws: `CancellationError` once `stopped()`.
  package static func holdAtBarrier(_ folder: String, _ stopped: () -> Bool) throws {
    _ = FileManager.default.createFile(atPath: folder + "/ready", contents: nil)
    for _ in 0..<60_000 where !FileManager.default.fileExists(atPath: folder + "/go") {
      if stopped() { throw CancellationError() }
      usleep(1_000)
    }
  }
}
