import Foundation

/// Replaces a file atomically (SPEC §5): the bytes go to a temporary file in the same folder,
/// which is flushed to disk (`fsync`) and renamed over the target; the folder is then flushed
/// so the rename survives a crash. A reader sees the old file or the new one, never half of
/// one. On any failure or cancellation the temporary file is removed and the old file is left
/// byte for byte.
public struct AtomicFileWriter: Sendable {
  /// Test seam: called with the temporary file's path after the bytes are written and flushed,
  /// before the rename. Throwing here aborts the write as a failure at that point would.
  package var beforeRename: (@Sendable (String) throws -> Void)?

  /// A writer with no test seam.
  public init() {}

  /// Writes `bytes` to `path` atomically.
  ///
  /// - Parameter path: an absolute path whose folder exists (already checked against the
  ///   file-access policy).
  /// - Throws: `FileAccessError` naming the path and the system's reason, or
  ///   `CancellationError` if the task is cancelled while writing.
  public func write(_ bytes: [UInt8], to path: String) throws {
    let folder = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    guard UnsafeFileSystem.isDirectory(folder) else {
      throw FileAccessError("cannot write \(path): the folder \(folder) does not exist")
    }
    let temporary = folder + "/." + name + ".tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw FileAccessError("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    var committed = false
    var isOpen = true
    defer {
      if isOpen { close(descriptor) }
      if !committed { unlink(temporary) }
    }
    let chunk = 1 << 20
    var offset = 0
    while offset < bytes.count {
      if Task.isCancelled { throw CancellationError() }
      let end = min(bytes.count, offset + chunk)
      if let failure = UnsafeFileSystem.write(descriptor, bytes[offset..<end]) {
        throw FileAccessError("cannot write \(path): \(String(cString: strerror(failure)))")
      }
      offset = end
    }
    guard fsync(descriptor) == 0 else { throw FileAccessError("cannot write \(path): \(String(cString: strerror(errno)))") }
    close(descriptor)
    isOpen = false
    if Task.isCancelled { throw CancellationError() }
    try beforeRename?(temporary)
    guard rename(temporary, path) == 0 else {
      throw FileAccessError("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    committed = true
    let folderDescriptor = Foundation.open(folder, O_RDONLY | O_CLOEXEC)
    if folderDescriptor >= 0 {
      _ = fsync(folderDescriptor)
      close(folderDescriptor)
    }
  }
}
