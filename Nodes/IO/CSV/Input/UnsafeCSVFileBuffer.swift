import Dispatch
import FlowRuntime
import Foundation

/// A regular file read through `pread` into one reused buffer, for the block readers
/// (`UnsafeCSVBlockReader`, `CSVMorsels`): `fill` tops the buffer up from the file, `consume`
/// drops bytes from its front (the next `fill` moves the rest to the front), `grow` doubles it
/// (a record longer than the buffer), and `restart` at a file offset the buffer still holds
/// keeps those bytes where they are, and the next `fill` reads only into the room after them
/// (the header's block is not read again, nor moved).
///
/// The buffer is never zero-filled by us (`pread` writes every byte before it is read), and a
/// large one is its own anonymous mapping advised to use huge pages (`UnsafeCSVStorage`): a
/// 32 MB block costs 16 page faults instead of 8,192, and none when a freed one is reused
/// (`UnsafeCSVSpareMappings`). A large `fill` reads on `workers` threads at once, each its own
/// span of the file into its own span of the buffer.
///
/// The file's size when opened bounds the read: bytes appended meanwhile are not read, and a
/// file cut short meanwhile is an error (its torn last row is not data).
///
/// Invariants: `0 <= head`, `head + filled <= capacity` and `offset <= size`; the filled bytes
/// `buffer[head..<head + filled]` are the file's bytes `offset - filled ..< offset`, and only
/// they are ever read (written by `pread`, or moved by `fill`'s compaction or `grow`); a `pread`
/// writes at most its span's bytes, and the spans of one parallel fill are disjoint and lie in
/// `head + filled..<capacity`; the bytes moved by `memmove` lie inside the buffer; the pointer
/// handed to `withFilled`'s body is valid only during the call. Checked in debug builds by
/// `_checkInvariants` after each change.
struct UnsafeCSVFileBuffer {
  let file: CheckedFile
  /// The file's size when opened.
  let size: Int
  private var storage: UnsafeCSVStorage
  /// Threads a large fill reads on.
  var workers = 1
  /// The least bytes per thread of a parallel fill.
  var minimumParallelBytes = 1 << 20
  /// Bytes of the buffer holding file data, from `head`.
  private(set) var filled = 0
  /// Where the filled bytes start in the buffer (bytes before it were consumed).
  private var head = 0
  /// Whether the filled bytes were kept by `restart` and not consumed since (the caller has
  /// not seen them: `fill` leaves them in place).
  private var keptByRestart = false
  /// The file offset of the next byte to read.
  private(set) var offset = 0
  /// Whether the file's last byte has been read into the buffer.
  private(set) var atEnd = false

  /// The buffer's size in bytes.
  var capacity: Int { storage.capacity }

  /// A buffer of `capacity` bytes (at least 64) over `file`, whose size is `size` (a large one
  /// reusing a mapping from `spares` if one fits).
  init(_ file: CheckedFile, size: Int, capacity: Int, spares: UnsafeCSVSpareMappings = .shared) {
    self.file = file
    self.size = size
    storage = UnsafeCSVStorage(capacity: Swift.max(64, capacity), spares: spares)
    atEnd = size == 0
  }

  /// Reads from the file until the buffer has no room after its filled bytes or the file
  /// ends, first moving the filled bytes to the front (unless a `restart` kept them there):
  /// the buffer is then full or holds the file's end.
  ///
  /// - Throws: `NodeError` for a read error or a file cut short while it is read.
  mutating func fill() throws {
    if head > 0 && !keptByRestart {
      if filled > 0 { _ = memmove(storage.base, storage.base + head, filled) }
      head = 0
    }
    let wanted = Swift.min(capacity - head - filled, size - offset)
    let threads = Swift.min(workers, wanted / Swift.max(1, minimumParallelBytes))
    if threads > 1 { try fillInParallel(wanted, threads: threads) }
    while head + filled < capacity && !atEnd {
      let (end, offset, size) = (head + filled, self.offset, self.size)
      let got = pread(file.descriptor, storage.base + end, Swift.min(capacity - end, size - offset), off_t(offset))
      if got < 0 {
        if errno == EINTR { continue }
        throw NodeError("cannot read \(file.path): \(String(cString: strerror(errno)))")
      }
      if got == 0 && offset < size {
        throw NodeError("\(file.path) changed size while it was read (\(size) bytes when opened, \(offset) now)")
      }
      self.filled += got
      self.offset += got
      if self.offset == size { atEnd = true }
    }
    _checkInvariants()
  }

  /// Reads the next `wanted` bytes on `threads` threads (each span whole, or as far as its
  /// reads got); the filled prefix grows by the spans read whole in a row from the first, and
  /// the serial loop of `fill` finishes the rest (and reports any error).
  private mutating func fillInParallel(_ wanted: Int, threads: Int) throws {
    let spans = (0...threads).map { $0 * wanted / threads }
    let done = UnsafeSlots<Int>(threads)
    let target = UnsafeTransfer(storage.base + head + filled)
    let (descriptor, start) = (file.descriptor, offset)
    TableParallelism.forEach(threads, threads: threads) { part in
      var at = spans[part]
      let end = spans[part + 1]
      while at < end {
        let got = pread(descriptor, target.value + at, end - at, off_t(start + at))
        if got < 0 && errno == EINTR { continue }
        if got <= 0 { break }
        at += got
      }
      done[part] = at - spans[part]
    }
    var read = 0
    for part in 0..<threads {
      let got = done[part] ?? 0
      read += got
      if got < spans[part + 1] - spans[part] { break }
    }
    filled += read
    offset += read
    if offset == size { atEnd = true }
  }

  /// Drops the first `count` filled bytes (the rest stays where it is until the next `fill`).
  mutating func consume(_ count: Int) {
    precondition(count >= 0 && count <= filled, "consume \(count) of \(filled)")
    filled -= count
    head = filled == 0 ? 0 : head + count
    keptByRestart = false
    _checkInvariants()
  }

  /// Twice the room (a record longer than the buffer).
  mutating func grow() {
    let larger = UnsafeCSVStorage(capacity: capacity * 2, spares: storage.spares)
    if filled > 0 { _ = memcpy(larger.base, storage.base + head, filled) }
    storage = larger
    head = 0
    keptByRestart = false
  }

  /// The filled bytes from file offset `start` on, if the buffer holds that offset (the
  /// bytes before it are dropped); otherwise empties the buffer, and the next `fill` reads
  /// from `start`.
  mutating func restart(at start: Int) {
    precondition(start >= 0 && start <= size, "restart at \(start) of \(size)")
    let first = offset - filled
    if start >= first && start <= offset {
      consume(start - first)
      keptByRestart = true
      return
    }
    head = 0
    keptByRestart = false
    filled = 0
    offset = start
    atEnd = start == size
    _checkInvariants()
  }

  /// `body` over the filled bytes.
  func withFilled<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try withExtendedLifetime(storage) {
      try body(UnsafeBufferPointer(start: (storage.base + head).assumingMemoryBound(to: UInt8.self), count: filled))
    }
  }

  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    assert(
      head >= 0 && filled >= 0 && head + filled <= capacity && filled <= offset && offset <= size
        && atEnd == (offset == size),
      "filled \(filled) from \(head) of \(capacity), offset \(offset) of \(size)")
    #endif
  }
}
