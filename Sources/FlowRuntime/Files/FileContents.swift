/// Reading whole files for file nodes: cancellable mid-file, reporting bytes read.
public enum FileContents {
  /// The bytes of the file at `path`.
  ///
  /// - Parameters:
  ///   - path: an absolute path (already checked against the file-access policy).
  ///   - progress: where to add the bytes read, if the host watches.
  /// - Throws: `FileAccessError` naming the path and the system's reason;
  ///   `CancellationError` if the task is cancelled while reading.
  public static func read(_ path: String, progress: PassProgress? = nil) throws -> [UInt8] {
    guard !UnsafeFileSystem.isDirectory(path) else { throw FileAccessError("cannot read \(path): it is a folder") }
    var reported = 0
    let result = try UnsafeFileSystem.readAll(path) { count in
      if Task.isCancelled { throw CancellationError() }
      progress?.addRead(rows: 0, bytes: count - reported)
      reported = count
    }
    switch result {
    case .success(let bytes): return bytes
    case .failure(let error): throw FileAccessError("cannot read \(path): \(error.message)")
    }
  }
}
