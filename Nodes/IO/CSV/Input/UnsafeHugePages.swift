import Foundation

/// Advises the kernel to back the reserved storage of a large array with huge pages, so that
/// filling a column of millions of cells costs a few dozen page faults instead of thousands
/// (Linux, transparent huge pages in `madvise` mode; elsewhere nothing).
///
/// Invariants: only the whole 2 MB pages that lie inside the array's allocated capacity
/// (`baseAddress ..< baseAddress + capacity × stride`, read inside
/// `withUnsafeMutableBufferPointer`) are advised; advice never changes the bytes, so the
/// array's elements and the allocator's bookkeeping around the storage are untouched.
enum UnsafeHugePages {
  static let hugePage = 2 << 20

  /// Advises the capacity of `array` (reserved already) if it spans at least two huge pages.
  static func advise<Element>(_ array: inout [Element]) {
    #if os(Linux)
    let bytes = array.capacity * MemoryLayout<Element>.stride
    guard bytes >= 2 * hugePage else { return }
    array.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let start = (Int(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
      let end = (Int(bitPattern: base) + bytes) & ~(hugePage - 1)
      guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
      _ = madvise(pointer, end - start, MADV_HUGEPAGE)
    }
    #endif
  }
}
