import FlowRuntime
import Foundation

/// Block-buffer mappings that no read owns, kept for the process's next read
/// (`UnsafeCSVStorage`) instead of being unmapped: a host that reads files again and again
/// (`flow serve`, an app's `FlowEngine`, a watched file) then fills pages that are already
/// there, instead of faulting in and zeroing fresh ones for every read. On the 2-core VM the
/// kernel's zeroing of a new 8 MB block buffer was ~6 % of a whole flights read in process.
///
/// At most `mostSpares` mappings and `mostBytes` bytes in all are kept; a kept mapping is
/// advised `MADV_FREE`, so the kernel may still take its pages back under memory pressure (a
/// page it took reads as zeros, and is written by `pread` before it is read anyway). Until it
/// does, the pages count in the process's RSS: the shared spares are kept small.
///
/// Invariants: every spare is a mapping of `length` bytes at `address` that no storage owns: it
/// enters the list only from the deinit of the storage that owned it, and leaves it (under the
/// lock) before a storage uses it or `release` unmaps it; the list never holds more than
/// `mostSpares` mappings or `mostBytes` bytes.
final class UnsafeCSVSpareMappings: Sendable {
  /// A mapping no storage owns (its address and length).
  struct Spare: Sendable, Equatable {
    let address: Int
    let length: Int
  }

  /// The process's spares, used by every read: room for the materialized read's block buffers
  /// on a few workers (4 MB each), not for a streamed read's morsel buffer (32 MB), which a
  /// one-shot run frees once, at its end, and would then hold through the rest of the run (a
  /// kept mapping's pages count in the process's RSS until the kernel takes them: 64 MB of
  /// spares raised Q3's peak by ~50 MB).
  static let shared = UnsafeCSVSpareMappings(mostSpares: 2, mostBytes: 16 << 20)

  let mostSpares: Int
  let mostBytes: Int
  private let list = Locked<[Spare]>([])

  init(mostSpares: Int, mostBytes: Int) {
    self.mostSpares = mostSpares
    self.mostBytes = mostBytes
  }

  /// The spares now.
  var spares: [Spare] { list.withLock { $0 } }

  /// The smallest spare of at least `size` bytes and at most twice as many (a small read does
  /// not hold a large mapping), taken out of the list; `nil` if none fits.
  func take(_ size: Int) -> Spare? {
    list.withLock { list in
      var best: Int?
      for index in list.indices where list[index].length >= size && list[index].length <= 2 * size {
        if best.map({ list[index].length < list[$0].length }) ?? true { best = index }
      }
      return best.map { list.remove(at: $0) }
    }
  }

  /// Keeps `spare` if there is room (then advises the kernel it may take its pages back):
  /// `false` if the caller must unmap it.
  func keep(_ spare: Spare) -> Bool {
    #if os(Linux)
    guard spare.length <= mostBytes, let base = UnsafeMutableRawPointer(bitPattern: spare.address) else { return false }
    _ = madvise(base, spare.length, MADV_FREE)
    return list.withLock { list in
      guard list.count < mostSpares, list.reduce(spare.length, { $0 + $1.length }) <= mostBytes else { return false }
      list.append(spare)
      return true
    }
    #else
    return false
    #endif
  }

  /// Unmaps every spare (a host that wants the memory back now).
  func release() {
    #if os(Linux)
    let taken = list.withLock { list in
      defer { list = [] }
      return list
    }
    for spare in taken { munmap(UnsafeMutableRawPointer(bitPattern: spare.address), spare.length) }
    #endif
  }
}
