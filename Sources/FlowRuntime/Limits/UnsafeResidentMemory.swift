// Invariants: `bytes()` reads at most `buffer.count` bytes into a buffer it owns, through a
// descriptor it opened and closes before returning; the pointer never escapes the closure.
// Nothing else here touches memory directly.

#if canImport(Glibc)
import Glibc
#endif

/// The process's resident memory, read from `/proc/self/statm` (Linux): one open, one read
/// and one close, a few µs. Elsewhere, or if the file cannot be read, it is unknown (`nil`) and
/// the memory limit is not checked.
enum UnsafeResidentMemory {
  /// The resident set size in bytes, or `nil` if it cannot be read.
  static func bytes() -> Int? {
    #if os(Linux)
    let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 96)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    // "size resident shared text lib data dt", in pages: the second field.
    var field = 0
    var pages = 0
    for byte in buffer[..<count] {
      if byte == UInt8(ascii: " ") {
        field += 1
        if field > 1 { break }
      } else if field == 1, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        pages = pages &* 10 &+ Int(byte &- UInt8(ascii: "0"))
      }
    }
    return pages &* Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return nil
    #endif
  }
}
