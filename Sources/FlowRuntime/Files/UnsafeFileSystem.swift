import Foundation

/// The few POSIX calls the file-access policy and atomic writes need, wrapped so no other file
/// touches C pointers.
///
/// Invariants: every pointer a call returns (`realpath`'s buffer) is freed before returning;
/// file descriptors are closed by their owner (`AtomicFileWriter`) on every path.
enum UnsafeFileSystem {
  /// The canonical absolute path of an existing `path` (symlinks resolved), or `nil`.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether something (a file, folder or symlink, even a dangling one) exists at `path`.
  static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// Whether `path` is an existing folder (following symlinks).
  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// Writes all of `bytes` to `descriptor`. Returns `errno` on failure.
  static func write(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) -> Int32? {
    var offset = bytes.startIndex
    while offset < bytes.endIndex {
      let written = bytes[offset...].withUnsafeBytes { buffer in
        Foundation.write(descriptor, buffer.baseAddress, buffer.count)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return nil
  }

  /// Reads the whole file at `path`, calling `chunk` with the bytes read so far every few MB
  /// (for progress and cancellation). Returns the bytes or the system's reason.
  static func readAll(_ path: String, onChunk chunk: (Int) throws -> Void) throws -> Result<[UInt8], FileAccessError> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(FileAccessError(String(cString: strerror(errno)))) }
    defer { close(descriptor) }
    var info = stat()
    var capacity = 1 << 16
    if fstat(descriptor, &info) == 0 && info.st_size > 0 { capacity = Int(info.st_size) + 1 }
    var bytes = [UInt8](repeating: 0, count: capacity)
    var count = 0
    while true {
      if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(1 << 16, bytes.count))) }
      let want = min(bytes.count - count, 1 << 22)
      let got = bytes.withUnsafeMutableBytes { buffer in
        Foundation.read(descriptor, buffer.baseAddress! + count, want)
      }
      if got < 0 {
        if errno == EINTR { continue }
        return .failure(FileAccessError(String(cString: strerror(errno))))
      }
      if got == 0 { break }
      count += got
      try chunk(count)
    }
    bytes.removeLast(bytes.count - count)
    return .success(bytes)
  }
}
