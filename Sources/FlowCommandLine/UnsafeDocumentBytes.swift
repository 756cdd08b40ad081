#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FlowGraph

/// A regular file's bytes in an anonymous private mapping that parsing gives back to the
/// system as it goes, so a large document never holds its whole text and its whole model at
/// once (at 1,000,000 nodes: 241 MB of JSON next to the decoded document).
///
/// Invariants of the unsafe part: `base` points at a mapping of `capacity` bytes (at least
/// one page) owned by this object alone and unmapped in `deinit`; its first `count` bytes hold
/// the file. `parseReleasing` hands the parser a buffer of those `count` bytes and, behind
/// the parser, drops whole pages below the offset it reports (`MADV_DONTNEED`: they read as
/// zeros afterwards). Only a successful parse is kept: on any failure (a syntax error counts
/// lines from the start, a document with a problem is read twice) the caller reads the file
/// again the plain way, so messages are exactly those of `FlowDocument(jsonBytes:)`.
final class UnsafeDocumentBytes {
  private let base: UnsafeMutableRawPointer
  private let capacity: Int
  let count: Int

  private init(base: UnsafeMutableRawPointer, capacity: Int, count: Int) {
    self.base = base
    self.capacity = capacity
    self.count = count
  }

  deinit { _ = munmap(base, capacity) }

  /// Reads the regular file at `path` into a mapping.
  ///
  /// - Returns: the bytes; a failure to open (with `errno`) or a file over `limit`; or `nil`
  ///   when `path` is not a regular non-empty file (or cannot be examined), or the file changed
  ///   size while read (read it as a stream then, which reports any error).
  static func load(_ path: String, limit: Int) -> Result<UnsafeDocumentBytes, UnsafeFileReading.Failure>? {
    // Only a regular file is opened here: opening a FIFO would take its writer's data.
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return .failure(.system(errno)) }
    defer { _ = close(descriptor) }
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      let size = Int(exactly: status.st_size), size > 0
    else { return nil }
    guard size <= limit else { return .failure(.tooLarge(limit: limit)) }
    let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 1)
    // One page more than the file, for the read that checks the end.
    let capacity = (size / page + 1) * page
    guard let mapping = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      mapping != MAP_FAILED
    else { return nil }
    let bytes = UnsafeDocumentBytes(base: mapping, capacity: capacity, count: size)
    var filled = 0
    while filled < capacity {
      let got = read(descriptor, mapping + filled, capacity - filled)
      if got < 0 {
        if errno == EINTR { continue }
        return .failure(.system(errno))
      }
      if got == 0 { break }
      filled += got
    }
    // A file that grew or shrank since `fstat` is read as a stream instead.
    guard filled == size else { return nil }
    return .success(bytes)
  }

  /// Parses the bytes, releasing the pages the parser has passed.
  ///
  /// - Parameter step: how far the parser moves between two releases (bytes).
  /// - Returns: the document, or `nil` when it has any problem (read the file again plainly to
  ///   report it). The bytes are consumed either way: call this once.
  func parseReleasing(step: Int = FlowDocument.passedStep) -> FlowDocument? {
    let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 1)
    let base = self.base
    var released = 0
    let buffer = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
    return try? FlowDocument(
      jsonBuffer: buffer,
      passed: { offset in
        // Keep the page under the parser.
        let end = max(offset - page, 0) / page * page
        guard end > released else { return }
        _ = madvise(base + released, end - released, MADV_DONTNEED)
        released = end
      }, step: step)
  }
}
