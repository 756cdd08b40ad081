import Foundation

/// The few POSIX calls the file-access policy and atomic writes need, wrapped so no other file
/// touches C pointers.
///
/// Invariants: every pointer a call returns (`realpath`'s buffer, `fdopendir`'s stream) is freed
/// before returning; a descriptor passed in stays open and owned by the caller (`entries`
/// reads a duplicate); descriptors opened here are closed on every path; a write reads only
/// inside the buffer it is given, and direct I/O is turned off on a descriptor before any piece
/// it could not take as it is (unaligned address, length or offset) is written.
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

  /// Linux's `O_DIRECT` (not exported by the C module): writes that bypass the page cache.
  #if os(Linux) && (arch(x86_64) || arch(i386))
  static let directIO: Int32 = 0o40_000
  #elseif os(Linux) && (arch(arm64) || arch(arm))
  static let directIO: Int32 = 0o200_000
  #else
  static let directIO: Int32 = 0
  #endif
  /// The alignment direct I/O asks of a piece's address, length and file offset here.
  static let directAlignment = 4_096

  /// Writes all of `bytes` to `descriptor`; `nil`, or the `errno` that stopped it. While
  /// `direct` (the descriptor was opened with `directIO`), a piece whose address or length is
  /// not a multiple of `directAlignment`, or that the system refuses as such, first turns
  /// direct I/O off on the descriptor (`direct` becomes `false`), so every byte is written.
  /// The caller keeps the file offset aligned while `direct` (whole pieces only).
  static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, direct: inout Bool) -> Int32? {
    guard bytes.count > 0, let base = bytes.baseAddress else { return nil }
    if direct {
      let aligned = Int(bitPattern: base) % directAlignment == 0 && bytes.count % directAlignment == 0
      if aligned {
        var offset = 0
        while offset < bytes.count {
          let written = Foundation.write(descriptor, base + offset, bytes.count - offset)
          if written < 0 && errno == EINTR { continue }
          // A short direct write leaves the offset aligned only by chance: finish buffered.
          if written < 0 || written % directAlignment != 0 { break }
          offset += written
        }
        if offset == bytes.count { return nil }
        if let code = stopDirect(descriptor, &direct) { return code }
        return write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
      }
      if let code = stopDirect(descriptor, &direct) { return code }
    }
    return write(descriptor, bytes)
  }

  /// Turns direct I/O off on `descriptor`.
  private static func stopDirect(_ descriptor: Int32, _ direct: inout Bool) -> Int32? {
    direct = false
    let flags = fcntl(descriptor, F_GETFL)
    guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~directIO) == 0 else { return errno }
    return nil
  }

  /// Writes all of `bytes` to `descriptor`; `nil`, or the `errno` that stopped it.
  static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
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
    // No bytes: the empty array itself (an uninitialized one of capacity 0 would write its
    // count into the shared empty storage, a race ThreadSanitizer reports).
    guard count > 0 else { return .success([]) }
    var failure: FileAccessError?
    // Read into uninitialized room (no zeroing pass): only the bytes `pread` wrote count.
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, done in
      done = 0
      while done < count {
        let got = pread(descriptor, buffer.baseAddress! + done, min(count - done, 1 << 30), off_t(offset + done))
        if got < 0 {
          if errno == EINTR { continue }
          failure = FileAccessError(String(cString: strerror(errno)))
          return
        }
        if got == 0 { break }
        done += got
      }
    }
    if let failure { return .failure(failure) }
    return .success(bytes)
  }

  /// Reads the whole open file from its current offset, calling `chunk` with the bytes read so far every few MB
  /// (for progress and cancellation). Returns the bytes or the system's reason.
  static func readAll(_ descriptor: Int32, onChunk chunk: (Int) throws -> Void) throws -> Result<
    [UInt8], FileAccessError
  > {
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
