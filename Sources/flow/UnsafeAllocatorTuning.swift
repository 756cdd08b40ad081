// Invariants: called once, first thing in `main`, before any thread exists; it only sets glibc
// malloc options. `mallopt` is not in the Glibc module (it lives in <malloc.h>), so it is looked
// up with `dlsym` and called through its C signature `int mallopt(int, int)`; where the symbol
// is missing (another libc) nothing happens. Hosts that embed the library keep their own
// allocator settings: this is the `flow` executable's choice, not the library's.
#if canImport(Glibc)
import Glibc
#endif

/// glibc's malloc, tuned for `flow run`'s table pipelines.
///
/// A streamed chain allocates and frees the columns of one morsel (a few MiB) per step. By
/// default glibc serves blocks that large with `mmap` and gives them back with `munmap` on
/// free, so every morsel's pages are faulted in again: on TPC-H Q1 at SF1 that is 0.55–0.65 s
/// of kernel time in a 1.5 s run. Serving them from the heap (mmap threshold 32 MiB, the most
/// glibc allows) and keeping up to 128 MiB of freed memory at the top of the heap before
/// trimming cuts it to about 0.25 s; peak memory grows by about 20 MB.
enum AllocatorTuning {
  static func apply() {
    #if canImport(Glibc)
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
    let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3  // M_TRIM_THRESHOLD, M_MMAP_THRESHOLD
    _ = mallopt(mmapThreshold, 32 << 20)
    _ = mallopt(trimThreshold, 128 << 20)
    #endif
  }
}
