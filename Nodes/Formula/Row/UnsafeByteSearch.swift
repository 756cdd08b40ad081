#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Invariants: the only unsafe accesses are `memchr` over `bytes[at..<to - needle.count + 1]`
// and `memcmp` of `needle.count` bytes at a candidate `at` with `at + needle.count <= to`,
// through `withUnsafeBufferPointer` for the duration of the call (never kept); `from...to` is
// checked to lie within `bytes` and to hold the needle first, so every pointer and length
// stays inside `bytes` and `needle`; the pointer `memchr` returns points into the scanned
// range, so its distance from the base is an index of `bytes`.

/// Finding a byte string inside a range of a byte array (the C library's vectorized `memchr`
/// for the needle's first byte, then `memcmp` of the rest; no allocation) — `like` patterns
/// such as `%a%b%` search for each literal this way instead of stepping byte by byte.
enum ByteSearch {
  /// The index of the first occurrence of `needle` in `bytes[from..<to]`, or `nil`.
  ///
  /// An empty needle is found at `from`.
  ///
  /// - Precondition: `0 <= from`, `to <= bytes.count` (a range past either end finds nothing).
  /// - Complexity: O((`to - from`) × `needle.count`) at worst (a first byte found everywhere
  ///   and the rest differing late), O(`to - from`) for text where the first byte is rare.
  static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from: Int, to: Int) -> Int? {
    guard from >= 0, to <= bytes.count, to - from >= needle.count else { return nil }
    if needle.isEmpty { return from }
    return bytes.withUnsafeBufferPointer { haystack -> Int? in
      needle.withUnsafeBufferPointer { wanted -> Int? in
        guard let base = haystack.baseAddress, let wantedBase = wanted.baseAddress else { return nil }
        let first = Int32(wanted[0]), last = to - wanted.count
        var at = from
        while at <= last {
          guard let found = memchr(base + at, first, last - at + 1) else { return nil }
          let candidate = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
          if memcmp(base + candidate, wantedBase, wanted.count) == 0 { return candidate }
          at = candidate + 1
        }
        return nil
      }
    }
  }
}
