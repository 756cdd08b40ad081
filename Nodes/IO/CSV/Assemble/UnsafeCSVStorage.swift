import Foundation

/// The bytes of an `UnsafeCSVFileBuffer`, uninitialized until read into: a large buffer is an
/// anonymous mapping at a huge-page boundary advised to use huge pages (Linux), a small one
/// (or where the mapping fails) an ordinary allocation. Freed once, when the last copy of the
/// buffer that owns it goes: a mapping goes back to its `UnsafeCSVSpareMappings` (kept for the
/// process's next read, if there is room) or is unmapped.
///
/// Invariants: `base ..< base + capacity` lies inside the mapping (`mapped` bytes from `base`,
/// `capacity <= mapped`) or inside the allocation; a mapping is owned by this storage alone
/// from `init` (fresh, or taken out of the spares) to `deinit` (handed back, or unmapped); the
/// bytes of a reused mapping are never read before `pread` writes them
/// (`UnsafeCSVFileBuffer`'s rule), so a previous read's bytes never show through.
final class UnsafeCSVStorage {
  let base: UnsafeMutableRawPointer
  let capacity: Int
  /// The mapping's length if `base` was mapped (0 if allocated).
  private let mapped: Int
  /// Where a mapping goes back when the storage does.
  let spares: UnsafeCSVSpareMappings

  static let hugePage = UnsafeHugePages.hugePage

  init(capacity: Int, spares: UnsafeCSVSpareMappings = .shared) {
    self.capacity = capacity
    self.spares = spares
    #if os(Linux)
    if capacity >= 2 * Self.hugePage {
      let size = (capacity + Self.hugePage - 1) & ~(Self.hugePage - 1)
      if let spare = spares.take(size), let base = UnsafeMutableRawPointer(bitPattern: spare.address) {
        self.base = base
        mapped = spare.length
        return
      }
      if let (base, length) = Self.map(size) {
        self.base = base
        mapped = length
        return
      }
    }
    #endif
    base = .allocate(byteCount: capacity, alignment: 64)
    mapped = 0
  }

  deinit {
    #if os(Linux)
    if mapped > 0 {
      if !spares.keep(UnsafeCSVSpareMappings.Spare(address: Int(bitPattern: base), length: mapped)) {
        munmap(base, mapped)
      }
      return
    }
    #endif
    base.deallocate()
  }

  /// Whether the bytes are a mapping (for tests).
  var isMapped: Bool { mapped > 0 }

  #if os(Linux)
  /// A fresh mapping of `size` bytes (whole huge pages) at a huge-page boundary, advised to use
  /// huge pages; `nil` if the system refuses it.
  private static func map(_ size: Int) -> (UnsafeMutableRawPointer, Int)? {
    // Over-map by one huge page, then give back the unaligned head and the tail.
    let span = size + hugePage
    guard let raw = mmap(nil, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), raw != MAP_FAILED
    else { return nil }
    let head = ((Int(bitPattern: raw) + hugePage - 1) & ~(hugePage - 1)) - Int(bitPattern: raw)
    if head > 0 { munmap(raw, head) }
    let aligned = raw + head
    let tail = span - head - size
    if tail > 0 { munmap(aligned + size, tail) }
    _ = madvise(aligned, size, MADV_HUGEPAGE)
    return (aligned, size)
  }
  #endif
}
