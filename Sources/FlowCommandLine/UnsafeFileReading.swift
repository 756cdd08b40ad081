#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file or stream through POSIX `open`/`read`, in chunks, up to a size limit.
///
/// Works for what `FileManager` cannot read: FIFOs, `/dev/stdin`, `<(process substitution)`,
/// character devices — anything `read(2)` accepts. Never reads more than `limit + 1` bytes, so
/// an endless stream costs bounded memory.
///
/// Invariants of the unsafe part: each `read` writes at most `chunk.count` bytes into `chunk`
/// (a live, uniquely owned array for the duration of the call), and only the `count` bytes it
/// reports are copied out. The descriptor is closed on every path when `close` is set.
enum UnsafeFileReading {
  /// Why a read failed.
  enum Failure: Error, Equatable {
    /// `open` or `read` failed with this `errno`.
    case system(Int32)
    /// The stream holds more than the limit.
    case tooLarge(limit: Int)
  }

  /// Opens `path` read-only and reads it to the end.
  static func contents(ofPath path: String, limit: Int) -> Result<[UInt8], Failure> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(.system(errno)) }
    defer { _ = close(descriptor) }
    return contents(of: descriptor, limit: limit)
  }

  /// Reads the open `descriptor` to the end (it stays open).
  static func contents(of descriptor: Int32, limit: Int) -> Result<[UInt8], Failure> {
    var bytes: [UInt8] = []
    // A regular file says its size: one buffer of that size (plus the byte that detects
    // growth), instead of doubling through copies that hold 1.5× the file at once.
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 {
      bytes.reserveCapacity(Int(clamping: min(Int64(status.st_size), Int64(limit))) + 1)
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { buffer in read(descriptor, buffer.baseAddress, buffer.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return .failure(.system(errno))
      }
      if count == 0 { return .success(bytes) }
      guard bytes.count + count <= limit else { return .failure(.tooLarge(limit: limit)) }
      bytes.append(contentsOf: chunk[..<count])
    }
  }

  /// The text of `code` as a reason, lowercased: "permission denied", "no such file or
  /// directory", "is a directory".
  static func reason(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    let message = String(cString: text)
    guard let first = message.first else { return "error \(code)" }
    // strerror capitalizes the first word only ("Permission denied"); keep acronyms as they are.
    let rest = message.dropFirst()
    return rest.first.map { $0.isUppercase } == true ? message : first.lowercased() + rest
  }
}
