import Foundation

/// Replaces a file atomically (Reference.md, "Files and limits"): the bytes go to a temporary file in the same folder,
/// which is flushed to disk (`fsync`) and renamed over the target; the folder is then flushed
/// so the rename survives a crash. A reader sees the old file or the new one, never half of
/// one. On any failure or cancellation the temporary file is removed and the old file is left
/// byte for byte; the replaced file's permission bits are kept.
///
/// Temporary files are named `.<name>.flowtmp-<pid>-<random>`, the name shortened so the whole
/// fits the folder's name limit, and are locked while written. The first write into a folder
/// removes temporary files there whose writer died (a killed run): unlocked, and their process
/// gone. While a write is in flight its temporary file is listed in `TemporaryFiles`, which a
/// host about to exit on a signal empties.
public struct AtomicFileWriter: Sendable {
  /// Test seam: called with the temporary file's path after the bytes are written and flushed,
  /// before the rename. Throwing here aborts the write as a failure at that point would.
  package var beforeRename: (@Sendable (String) throws -> Void)?

  /// A writer with no test seam.
  public init() {}

  /// The writer of file nodes in `environment`: with its test seam `writeBarrier` set, each
  /// write holds at the barrier before its rename (`TemporaryFiles.holdAtBarrier`) until the
  /// test lets it go or the pass is asked to stop.
  package init(_ environment: EvaluationEnvironment) {
    guard let folder = environment.writeBarrier else { return }
    let progress = environment.progress
    beforeRename = { _ in
      try TemporaryFiles.holdAtBarrier(folder) { Task.isCancelled || progress?.isStopRequested == true }
    }
  }

  /// Writes `bytes` to `path` atomically. For a host's own files (a trace, a saved document):
  /// the path is trusted and not checked against any policy (file nodes write through
  /// `FileAccessPolicy`).
  ///
  /// - Parameter path: an absolute path whose folder exists.
  /// - Throws: `FileAccessError` naming the path and the system's reason, or
  ///   `CancellationError` if the task is cancelled while writing.
  public func write(_ bytes: [UInt8], to path: String) throws {
    let folderPath = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    let folder = open(folderPath.isEmpty ? "." : folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard folder >= 0 else { throw FileAccessError("cannot write \(path): the folder \(folderPath) does not exist") }
    var info = stat()
    let exists = fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFREG
    try write(
      bytes, to: CheckedTarget(folder: folder, name: name, path: path, mode: exists ? info.st_mode & 0o7777 : nil))
  }

  /// Writes `bytes` to a target the file-access policy checked.
  ///
  /// - Parameter stop: a host's request to stop (a signal), checked between chunks.
  package func write(_ bytes: [UInt8], to target: CheckedTarget, stop: PassProgress? = nil) throws {
    try write(to: target, stop: stop) { emit in try emit(bytes[...]) }
  }

  /// Writes the bytes `produce` hands to its `emit`, in order, to a target the file-access
  /// policy checked, atomically as `write(_:to:stop:)`: a `flow run` chain that streams into
  /// `writeCSV` never holds the whole file. If `produce` throws, nothing is replaced and the
  /// temporary file is removed.
  ///
  /// - Parameter durable: whether the file and its folder are flushed to disk (`fsync`) before
  ///   and after the rename. Only a file whose damage after a power loss is detected and
  ///   repaired by its reader (a checksummed run-cache entry) passes `false`: readers still
  ///   see the old file or the whole new one.
  package func write(
    to target: CheckedTarget, stop: PassProgress? = nil, durable: Bool = true,
    _ produce: ((ArraySlice<UInt8>) throws -> Void) throws -> Void
  ) throws {
    try write(to: target, stop: stop, durable: durable, bypassesPageCache: false) { emit in
      try withoutActuallyEscaping(emit) { emit in try produce { bytes in try bytes.withUnsafeBytes { try emit($0) } } }
    }
  }

  /// Writes the bytes `produce` hands to its `emit` as `write(to:stop:durable:_:)` does, from
  /// raw buffers valid during each call.
  ///
  /// - Parameter bypassesPageCache: write page-aligned whole-page pieces with direct I/O
  ///   (`O_DIRECT`) where the file system takes it, so they are not copied into the page cache
  ///   (the first piece that is not aligned, and any refusal, turn it off for the rest).
  package func write(
    to target: CheckedTarget, stop: PassProgress? = nil, durable: Bool = true, bypassesPageCache: Bool,
    _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
  ) throws {
    let path = target.path
    func failure(_ code: Int32) -> FileAccessError {
      FileAccessError("cannot write \(path): \(String(cString: strerror(code)))")
    }
    func stopped() -> Bool { Task.isCancelled || stop?.isStopRequested == true }
    TemporaryFiles.removeStale(in: target.folder)
    let temporary = TemporaryFiles.name(for: target.name, limit: UnsafeFileSystem.nameLimit(target.folder))
    var direct = bypassesPageCache
    var descriptor = openat(
      target.folder, temporary,
      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | (direct ? UnsafeFileSystem.directIO : 0), 0o666)
    if descriptor < 0 && direct && errno == EINVAL {
      // The file system takes no direct I/O (and made no file).
      direct = false
      descriptor = openat(target.folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
    }
    guard descriptor >= 0 else { throw failure(errno) }
    let registration = TemporaryFiles.register(folder: target.folder, name: temporary)
    _ = flock(descriptor, LOCK_EX)
    var committed = false
    var isOpen = true
    defer {
      if isOpen { close(descriptor) }
      if !committed { unlinkat(target.folder, temporary, 0) }
      TemporaryFiles.unregister(registration)
    }
    if let mode = target.mode, fchmod(descriptor, mode) != 0 { throw failure(errno) }
    let chunk = 1 << 20
    try produce { bytes in
      var offset = 0
      while offset < bytes.count {
        if stopped() { throw CancellationError() }
        let end = min(bytes.count, offset + chunk)
        if let code = UnsafeFileSystem.write(
          descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), direct: &direct)
        {
          throw failure(code)
        }
        offset = end
      }
    }
    guard !durable || fsync(descriptor) == 0 else { throw failure(errno) }
    if stopped() { throw CancellationError() }
    try beforeRename?((path as NSString).deletingLastPathComponent + "/" + temporary)
    guard renameat(target.folder, temporary, target.folder, target.name) == 0 else { throw failure(errno) }
    committed = true
    close(descriptor)  // releases the lock only now: a sweeper never sees an unlocked file of a live write
    isOpen = false
    if durable { _ = fsync(target.folder) }
    TemporaryFiles.noteWritten(target.folder)
  }
}
