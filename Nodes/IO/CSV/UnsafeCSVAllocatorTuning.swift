#if canImport(Glibc)
import Glibc
#endif

/// The block readers allocate each block's columns afresh (several MB per column per block)
/// and free them once the block's table is consumed. glibc hands such chunks back to the
/// kernel on `free` and the next block faults them in again, zeroed: a quarter of a streamed
/// read's CPU time went to the kernel (`perf`: page faults, page clearing, unmapping). A top
/// pad (`mallopt(M_TOP_PAD)`) keeps up to 64 MiB of freed memory at the top of each heap for
/// the next block. Process-wide, set once (the first read); a no-op where glibc's `mallopt`
/// is not found. Peak memory grows by at most the pad per heap, and only by memory the
/// process had used already.
///
/// Invariants: `mallopt` is looked up by name in the loaded glibc and called through its C
/// signature `int mallopt(int, int)` (glibc's, stable since glibc 2.0); the pointer
/// `dlsym` returns is used once, while glibc stays loaded (for the process's life).
enum UnsafeCSVAllocatorTuning {
  static let topPadBytes: Int32 = 64 << 20
  /// glibc's `M_TOP_PAD` (`malloc.h`, which the Glibc module does not export).
  static let topPadOption: Int32 = -2

  private static let applied: Bool = {
    #if canImport(Glibc)
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }  // RTLD_DEFAULT
    return unsafeBitCast(symbol, to: Mallopt.self)(topPadOption, topPadBytes) == 1
    #else
    return false
    #endif
  }()

  /// Applies the tuning (once per process); whether glibc took it.
  @discardableResult
  static func apply() -> Bool { applied }
}
