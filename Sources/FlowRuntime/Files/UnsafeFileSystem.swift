import Foundation

/// The few POSIX calls the file-access policy and atomic writes need, wrapped so no other file
/// touches C pointers.
///
/// Invariants: every pointer a call returns (`realpath`'s buffer, `fdopendir`'s stream) is freed
/// before returning; a descriptor passed in stays open and owned by the caller (`entries`
/// reads a duplicate); descriptors opened here are closed on every path.
enum UnsafeFileSystem {
  /// The canonical absolute path of an existing `path` (symlinks resolved), or `nil`.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The longest file name `folder` takes, in bytes (255 where the system does not say).
  static func nameLimit(_ folder: Int32) -> Int {
    let limit = fpathconf(folder, Int32(_PC_NAME_MAX))
    return limit > 0 ? min(Int(limit), 4_096) : 255
  }

  /// The names in the open `folder` (without `.` and `..`); empty if it cannot be listed.
  static func entries(of folder: Int32) -> [String] {
    let copy = dup(folder)
    guard copy >= 0 else { return [] }
    guard let stream = fdopendir(copy) else { close(copy); return [] }
    defer { closedir(stream) }
    rewinddir(stream)
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
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

  /// The size of the open file in bytes, or the system's reason.
  static func size(_ descriptor: Int32) -> Result<Int, FileAccessError> {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return .failure(FileAccessError(String(cString: strerror(errno)))) }
    return .success(Int(info.st_size))
  }

  /// The `count` bytes of the open file at `offset` (`pread`: the descriptor's offset is not
  /// moved, so threads may read ranges of one descriptor at once), fewer at the file's end.
  /// Returns the bytes or the system's reason.
  static func read(_ descriptor: Int32, at offset: Int, count: Int) -> Result<[UInt8], FileAccessError> {
    guard offset >= 0, count >= 0 else { return .failure(FileAccessError("a negative offset or length")) }
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let got = bytes.withUnsafeMutableBytes { buffer in
        pread(descriptor, buffer.baseAddress! + done, min(count - done, 1 << 30), off_t(offset + done))
      }
      if got < 0 {
        if errno == EINTR { continue }
        return .failure(FileAccessError(String(cString: strerror(errno))))
      }
      if got == 0 { break }
      done += got
    }
    bytes.removeLast(count - done)
    return .success(bytes)
  }

  /// Reads the whole open file from its current offset, calling `chunk` with the bytes read so far every few MB
  /// (for progress and cancellation). Returns the bytes or the system's reason.
  static func readAll(_ descriptor: Int32, onChunk chunk: (Int) throws -> Void) throws -> Result<[UInt8], FileAccessError> {
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
